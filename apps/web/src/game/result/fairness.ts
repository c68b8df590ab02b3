/**
 * The seed commitment check: the commitment published at deal time is the hex
 * SHA-256 of the seed's UTF-8 bytes, so anyone holding the revealed seed can recompute it.
 */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export async function commitmentMatches(seed: string, seedCommitment: string): Promise<boolean> {
  try {
    return (await sha256Hex(seed)) === seedCommitment.toLowerCase();
  } catch {
    // No Web Crypto (an insecure origin): the check cannot pass.
    return false;
  }
}
