/**
 * Linking a Solana wallet over real HTTP: nonce, a Sign-In-With-Solana message for this server's
 * domain, ed25519 signature, the address on /auth/me; every field checked, another domain refused.
 */
import { type KeyObject, generateKeyPairSync, sign } from 'node:crypto';
import { SERVER_TEXTS, userSchema, walletNonceDataSchema, walletVerifyDataSchema } from '@memeslam/protocol';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.ts';
import { WALLET_NONCE_TTL_MS } from '../src/wallet/service.ts';
import { type Booted, DATABASE_MODES, boot, call, newAccount } from './helpers/boot.ts';

interface Keypair {
  readonly address: string;
  readonly privateKey: KeyObject;
}

/** A fresh wallet: the address is the raw 32-byte ed25519 public key in base58, as Solana has it. */
function keypair(): Keypair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(x as string, 'base64url');
  expect(raw).toHaveLength(32);
  return { address: bs58.encode(raw), privateKey };
}

/** The boot helper's PUBLIC_URL. */
const PUBLIC_URL = 'http://memeslam.test';

function signMessage(wallet: Keypair, message: string): string {
  const signature = sign(null, Buffer.from(message, 'utf8'), wallet.privateKey);
  expect(signature).toHaveLength(64);
  return bs58.encode(signature);
}

describe.each(DATABASE_MODES)('wallet verification on %s', (mode) => {
  let server: Booted;
  let base: string;
  const clock = new ManualClock();
  beforeAll(async () => {
    server = await boot(mode, {}, { clock });
    base = server.base;
  }, 60_000);
  afterAll(() => server.close());

  async function register(): Promise<string> {
    const res = await call(base, 'POST', '/auth/register', { body: newAccount('wallet') });
    expect(res.status).toBe(201);
    return res.body.data.token as string;
  }

  async function nonceFor(token: string, address: string) {
    const res = await call(base, 'POST', '/wallet/nonce', { token, body: { address } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    return walletNonceDataSchema.parse(res.body.data);
  }

  /** A nonce, signed by the wallet: a body that verifies unless a test changes it. */
  async function signedBody(token: string, wallet: Keypair) {
    const { nonce, message } = await nonceFor(token, wallet.address);
    return { address: wallet.address, nonce, message, signature: signMessage(wallet, message) };
  }

  const verify = (token: string | undefined, body: unknown) =>
    call(base, 'POST', '/wallet/verify', { ...(token ? { token } : {}), body });

  async function me(token: string) {
    const res = await call(base, 'GET', '/auth/me', { token });
    expect(res.status).toBe(200);
    return userSchema.parse(res.body.data.user);
  }

  it('issues a Sign-In-With-Solana message for this domain with a sealed nonce, expiring in a few minutes', async () => {
    const token = await register();
    const wallet = keypair();
    const data = await nonceFor(token, wallet.address);
    const issuedAt = new Date(clock.now()).toISOString();
    expect(data.message).toBe(
      [
        'memeslam.test wants you to sign in with your Solana account:',
        wallet.address,
        '',
        'Link this Solana wallet to your MemeSlam account.',
        '',
        `URI: ${PUBLIC_URL}`,
        'Version: 1',
        'Chain ID: mainnet',
        `Nonce: ${data.nonce}`,
        `Issued At: ${issuedAt}`,
        `Expiration Time: ${data.expiresAt}`,
      ].join('\n'),
    );
    // CAIP-122: a nonce of letters and digits, at least 8.
    expect(data.nonce).toMatch(/^[A-Za-z0-9]{8,128}$/);
    expect(Date.parse(data.expiresAt)).toBe(clock.now() + WALLET_NONCE_TTL_MS);
    // Random each time.
    expect((await nonceFor(token, wallet.address)).nonce).not.toBe(data.nonce);
  });

  it('verifies a signature made with a generated keypair and shows the address on /auth/me', async () => {
    const token = await register();
    const wallet = keypair();
    expect((await me(token)).wallet.solanaAddress).toBeUndefined();
    const res = await verify(token, await signedBody(token, wallet));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const data = walletVerifyDataSchema.parse(res.body.data);
    expect(data.wallet).toMatchObject({ balance: 0, totalWon: 0, solanaAddress: wallet.address });
    expect((await me(token)).wallet.solanaAddress).toBe(wallet.address);
  });

  it('accepts the nonce a little before expiry and lets a user replace the linked address', async () => {
    const token = await register();
    const first = keypair();
    expect((await verify(token, await signedBody(token, first))).status).toBe(200);
    const second = keypair();
    const body = await signedBody(token, second);
    clock.advance(WALLET_NONCE_TTL_MS - 1000);
    const res = await verify(token, body);
    expect(res.status).toBe(200);
    expect((await me(token)).wallet.solanaAddress).toBe(second.address);
  });

  it('refuses a signature made by another key', async () => {
    const token = await register();
    const wallet = keypair();
    const { nonce, message } = await nonceFor(token, wallet.address);
    const res = await verify(token, {
      address: wallet.address,
      nonce,
      message,
      signature: signMessage(keypair(), message),
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: SERVER_TEXTS.invalidWalletSignature });
    expect((await me(token)).wallet.solanaAddress).toBeUndefined();
  });

  it('refuses a signature over another text, and one with a flipped bit', async () => {
    const token = await register();
    const wallet = keypair();
    const { nonce, message } = await nonceFor(token, wallet.address);
    const otherText = await verify(token, {
      address: wallet.address,
      nonce,
      message,
      signature: signMessage(wallet, nonce),
    });
    expect(otherText.status).toBe(400);
    expect(otherText.body.message).toBe(SERVER_TEXTS.invalidWalletSignature);
    const raw = Buffer.from(bs58.decode(signMessage(wallet, message)));
    raw[10] = (raw[10] as number) ^ 1;
    const flipped = await verify(token, { address: wallet.address, nonce, message, signature: bs58.encode(raw) });
    expect(flipped.status).toBe(400);
    expect(flipped.body.message).toBe(SERVER_TEXTS.invalidWalletSignature);
  });

  it('refuses a tampered nonce (issued-at and expiry sealed), even when the tampered message is signed', async () => {
    const token = await register();
    const wallet = keypair();
    const { nonce, message } = await nonceFor(token, wallet.address);
    const [random, issued, expiry, mac] = [
      nonce.slice(0, 32),
      nonce.slice(32, 42),
      nonce.slice(42, 52),
      nonce.slice(52),
    ];
    const shifted = (time: string, by: number) => (parseInt(time, 36) + by).toString(36).padStart(10, '0');
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('a') ? 'b' : 'a'}`;
    const tampered = [
      `${random}${issued}${shifted(expiry, 3_600_000)}${mac}`,
      // An older issue time (a message that seems to have been issued earlier) is refused too.
      `${random}${shifted(issued, -60_000)}${expiry}${mac}`,
      `${flip(random)}${issued}${expiry}${mac}`,
      `${random}${issued}${expiry}${flip(mac)}`,
      `${random}${issued}${expiry}${mac.toUpperCase()}`,
      `${random}${issued}${expiry}`,
      'not-a-nonce',
    ];
    expect(`${random}${issued}${expiry}${mac}`).toBe(nonce);
    for (const bad of tampered) {
      const res = await verify(token, {
        address: wallet.address,
        nonce: bad,
        message: message.replace(nonce, bad),
        signature: signMessage(wallet, message.replace(nonce, bad)),
      });
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({ success: false, message: SERVER_TEXTS.invalidWalletNonce });
    }
  });

  it('refuses a message for another domain (the phishing case) and any other changed field', async () => {
    // An attacker asks the server for a nonce for the victim's address on the attacker's account, then
    // has the victim sign it on the attacker's page, rewritten for that page's domain (so the wallet
    // shows no warning): the server refuses it as made for another website; nothing is linked.
    const attacker = await register();
    const victim = keypair();
    const { nonce, message } = await nonceFor(attacker, victim.address);
    const phishing = message.replace(/^memeslam\.test wants/, 'memeslam-prizes.example wants');
    expect(phishing).not.toBe(message);
    const refused = await verify(attacker, {
      address: victim.address,
      nonce,
      message: phishing,
      signature: signMessage(victim, phishing),
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ success: false, message: SERVER_TEXTS.walletMessageWrongDomain });
    // The same text signed but sent as the server's own message: the signature is not over it.
    const swapped = await verify(attacker, {
      address: victim.address,
      nonce,
      message,
      signature: signMessage(victim, phishing),
    });
    expect(swapped.status).toBe(400);
    expect(swapped.body.message).toBe(SERVER_TEXTS.invalidWalletSignature);
    expect((await me(attacker)).wallet.solanaAddress).toBeUndefined();

    // Every other field is checked too: each change, validly signed, is refused.
    const changed = [
      message.replace(`URI: ${PUBLIC_URL}`, 'URI: https://memeslam-prizes.example'),
      message.replace('Version: 1', 'Version: 2'),
      message.replace('Chain ID: mainnet', 'Chain ID: devnet'),
      message.replace('Link this Solana wallet', 'Sign in with this Solana wallet'),
      message.replace(/Issued At: .*/, `Issued At: ${new Date(clock.now() - 60_000).toISOString()}`),
      message.replace(/Expiration Time: .*/, `Expiration Time: ${new Date(clock.now() + 86_400_000).toISOString()}`),
      message.replace(`Nonce: ${nonce}`, `Nonce: ${nonce.slice(0, -1)}${nonce.endsWith('0') ? '1' : '0'}`),
      `${message}\nResources:\n- https://memeslam-prizes.example`,
      message.replace('\n\nLink', '\nLink'),
      'sign me',
    ];
    for (const text of changed) {
      expect(text).not.toBe(message);
      const res = await verify(attacker, {
        address: victim.address,
        nonce,
        message: text,
        signature: signMessage(victim, text),
      });
      expect(res.status, text).toBe(400);
      expect(res.body, text).toEqual({ success: false, message: SERVER_TEXTS.invalidWalletMessage });
    }
    expect((await me(attacker)).wallet.solanaAddress).toBeUndefined();
  });

  it('refuses an expired nonce', async () => {
    const token = await register();
    const wallet = keypair();
    const body = await signedBody(token, wallet);
    clock.advance(WALLET_NONCE_TTL_MS + 1);
    const res = await verify(token, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, message: SERVER_TEXTS.walletNonceExpired });
    expect((await me(token)).wallet.solanaAddress).toBeUndefined();
  });

  it("refuses another user's nonce, and a nonce issued for another address", async () => {
    const alice = await register();
    const bob = await register();
    const wallet = keypair();
    // Bob signs a nonce Alice was given: it is bound to Alice.
    const res = await verify(bob, await signedBody(alice, wallet));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(SERVER_TEXTS.invalidWalletNonce);
    // A nonce for one address does not prove another one.
    const other = keypair();
    const { nonce, message } = await nonceFor(alice, wallet.address);
    const swapped = await verify(alice, {
      address: other.address,
      nonce,
      message: message.replace(wallet.address, other.address),
      signature: signMessage(other, message.replace(wallet.address, other.address)),
    });
    expect(swapped.status).toBe(400);
    expect(swapped.body.message).toBe(SERVER_TEXTS.invalidWalletNonce);
    expect((await me(bob)).wallet.solanaAddress).toBeUndefined();
    expect((await me(alice)).wallet.solanaAddress).toBeUndefined();
  });

  it('refuses with 409 an address another account has already verified', async () => {
    const alice = await register();
    const bob = await register();
    const wallet = keypair();
    // Both get nonces before Alice links the address; Bob's own, validly signed nonce is then refused.
    const aliceBody = await signedBody(alice, wallet);
    const bobBody = await signedBody(bob, wallet);
    expect((await verify(alice, aliceBody)).status).toBe(200);
    const res = await verify(bob, bobBody);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: SERVER_TEXTS.walletAddressTaken });
    const nonce = await call(base, 'POST', '/wallet/nonce', { token: bob, body: { address: wallet.address } });
    expect(nonce.status).toBe(409);
    expect(nonce.body.message).toBe(SERVER_TEXTS.walletAddressTaken);
    expect((await me(bob)).wallet.solanaAddress).toBeUndefined();
    // Verifying the same address again on the owning account is fine.
    expect((await verify(alice, await signedBody(alice, wallet))).status).toBe(200);
  });

  it('refuses bad base58 and wrong lengths with 422, never a 5xx', async () => {
    const token = await register();
    const wallet = keypair();
    const good = await signedBody(token, wallet);
    const addresses = [
      '0OIl'.repeat(10), // characters outside base58
      `${wallet.address.slice(0, -1)}0`,
      '1'.repeat(31), // too short
      bs58.encode(Buffer.alloc(31, 7)), // decodes to 31 bytes
      bs58.encode(Buffer.alloc(33, 200)), // decodes to 33 bytes
      '1'.repeat(45),
      'z'.repeat(44), // 44 characters but more than 32 bytes
      '',
      12345,
      null,
    ];
    for (const address of addresses) {
      for (const [path, body] of [
        ['/wallet/nonce', { address }],
        ['/wallet/verify', { ...good, address }],
      ] as const) {
        const res = await call(base, 'POST', path, { token, body });
        expect(res.status, `${path} ${String(address)}`).toBe(422);
        expect(res.body.success).toBe(false);
        expect(res.body.message).toBe(SERVER_TEXTS.invalidWalletAddress);
      }
    }
    const signatures = [
      `${good.signature.slice(0, -1)}0`,
      'I'.repeat(70),
      good.signature.slice(0, 63),
      bs58.encode(Buffer.alloc(63, 9)),
      bs58.encode(Buffer.alloc(65, 200)),
      'z'.repeat(88),
      `${good.signature}${good.signature}`,
      42,
    ];
    for (const signature of signatures) {
      const res = await verify(token, { ...good, signature });
      expect(res.status, String(signature)).toBe(422);
      expect(res.body.message).toBe(SERVER_TEXTS.invalidWalletSignature);
    }
    const longNonce = await verify(token, { ...good, nonce: 'a'.repeat(129) });
    expect(longNonce.status).toBe(422);
    // An address of 32 bytes that is no point on the curve is a refused signature, not a crash.
    const zeros = bs58.encode(Buffer.alloc(32));
    const { nonce, message } = await nonceFor(token, zeros);
    const res = await verify(token, { address: zeros, nonce, message, signature: signMessage(wallet, message) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(SERVER_TEXTS.invalidWalletSignature);
    expect((await me(token)).wallet.solanaAddress).toBeUndefined();
  });

  it('refuses missing fields, unknown fields and bodies that are no object with a 4xx', async () => {
    const token = await register();
    const good = await signedBody(token, keypair());
    const bodies: unknown[] = [
      {},
      { nonce: good.nonce, signature: good.signature },
      { address: good.address, signature: good.signature },
      { address: good.address, nonce: good.nonce, message: good.message },
      { address: good.address, nonce: good.nonce, signature: good.signature },
      { ...good, message: '' },
      { ...good, extra: true },
      { ...good, nonce: '' },
      [],
      'text',
    ];
    for (const body of bodies) {
      const res = await verify(token, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.message).toBe('string');
    }
    const noBody = await call(base, 'POST', '/wallet/nonce', { token });
    expect(noBody.status).toBeGreaterThanOrEqual(400);
    expect(noBody.status).toBeLessThan(500);
    const missingAddress = await call(base, 'POST', '/wallet/nonce', { token, body: {} });
    expect(missingAddress.status).toBe(422);
    expect(missingAddress.body.message).toBe(SERVER_TEXTS.invalidWalletAddress);
    expect((await me(token)).wallet.solanaAddress).toBeUndefined();
  });

  it('answers 401 to signed-out requests and to a bad token', async () => {
    const token = await register();
    const body = await signedBody(token, keypair());
    for (const auth of [undefined, 'not.a.token']) {
      const nonce = await call(base, 'POST', '/wallet/nonce', { ...(auth ? { token: auth } : {}), body });
      expect(nonce.status).toBe(401);
      expect(nonce.body.success).toBe(false);
      const res = await verify(auth, body);
      expect(res.status).toBe(401);
    }
    const signedOut = await verify(undefined, body);
    expect(signedOut.body.message).toBe(SERVER_TEXTS.authenticationRequired);
    expect((await me(token)).wallet.solanaAddress).toBeUndefined();
  });
});
