/** The seats' network keys (docs/fair-play.md): one per network, keyed by the server secret, never the address. */
import { describe, expect, it } from 'vitest';
import { addressKeyer } from '../src/games/address-key.ts';

describe('addressKeyer', () => {
  const key = addressKeyer('a server secret of at least thirty-two characters');

  it('gives one key per network: an IPv4 address, an IPv6 /64 (its IPv4-mapped form is the IPv4 address)', () => {
    expect(key('2001:db8:7:7::1')).toBe(key('2001:db8:7:7:a:b:c:d'));
    expect(key('2001:db8:7:7::1')).not.toBe(key('2001:db8:7:8::1'));
    expect(key('203.0.113.9')).toBe(key('::ffff:203.0.113.9'));
    expect(key('203.0.113.9')).not.toBe(key('203.0.113.10'));
  });

  it('is a keyed hash: not the address, and another secret gives another key', () => {
    const k = key('203.0.113.9') as string;
    expect(k).toMatch(/^[\w-]{43}$/);
    expect(k).not.toContain('203');
    expect(addressKeyer('another server secret of thirty-two characters!')('203.0.113.9')).not.toBe(k);
    expect(addressKeyer('a server secret of at least thirty-two characters')('203.0.113.9')).toBe(k);
  });

  it('has no key without an address', () => {
    expect(key(undefined)).toBeNull();
    expect(key('')).toBeNull();
  });
});
