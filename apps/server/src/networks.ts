/**
 * The network a client address stands for wherever the server counts or compares clients by address
 * (rate limits, socket caps, same-address rules; docs/fair-play.md): an IPv4 address is itself, an
 * IPv6 address stands for its /64, the block one subscriber is routinely given, so that rotating
 * through one's own block does not dodge a limit. An IPv4-mapped IPv6 address is its IPv4 address.
 */
import ipaddr from 'ipaddr.js';

export function networkOf(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.includes('%') ? address.slice(0, address.indexOf('%')) : address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    const parts = v6.parts.slice(0, 4).map((part) => part.toString(16));
    return `${parts.join(':')}::/64`;
  }
  return parsed.toString();
}
