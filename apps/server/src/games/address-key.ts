/**
 * The keyed hash of a client's network that a game's seat keeps (game_players.address_key,
 * docs/fair-play.md): HMAC-SHA256 over networkOf(address) (an IPv4 address, an IPv6 /64) with a key
 * derived from the server secret. Equal keys say "same network" without keeping the address; without
 * the secret the key cannot be turned back into an address by trying them all.
 */
import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { networkOf } from '../networks.ts';

export type AddressKeyer = (address: string | null | undefined) => string | null;

/** `secret`: the server secret (JWT_SECRET); without one (tests building a service alone), a key of this process. */
export function addressKeyer(secret: string | undefined): AddressKeyer {
  // Imported once as a KeyObject: a raw key given to each createHmac is imported anew every time.
  const key = createSecretKey(
    secret ? createHmac('sha256', secret).update('memeslam seat network key v1').digest() : randomBytes(32),
  );
  return (address) => {
    if (!address) return null;
    return createHmac('sha256', key).update(networkOf(address), 'utf8').digest('base64url');
  };
}
