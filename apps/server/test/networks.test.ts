import { describe, expect, it } from 'vitest';
import { networkOf } from '../src/networks.ts';

describe('networkOf', () => {
  it('keeps an IPv4 address whole', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('203.0.113.8')).not.toBe(networkOf('203.0.113.7'));
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 in one network, and a neighbouring /64 in another', () => {
    const a = networkOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(networkOf('2001:0db8:0001:0002::1')).toBe(a);
    expect(networkOf('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(a);
    expect(networkOf('2001:db8:1:3::1')).not.toBe(a);
    expect(a).toBe('2001:db8:1:2::/64');
  });

  it('drops a zone index and leaves what is not an address as it is', () => {
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('not-an-ip')).toBe('not-an-ip');
  });
});
