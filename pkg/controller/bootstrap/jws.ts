// Detached JWS signatures of cluster-info (RFC 7515 appendix F): an HS256 JWS whose
// payload part is left out; header {"alg":"HS256","kid":<token id>}, keyed by the
// token secret, as upstream's bootstrap signer computes them.
import { CompactSign, compactVerify } from 'jose';

export async function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): Promise<string> {
  const full = await new CompactSign(new TextEncoder().encode(content))
    .setProtectedHeader({ alg: 'HS256', kid: tokenId })
    .sign(new TextEncoder().encode(tokenSecret));
  const [header, , signature] = full.split('.');
  return `${header}..${signature}`;
}

/** Whether a detached signature is valid for the content and token (clients must require HS256). */
export async function detachedSignatureIsValid(detached: string, content: string, tokenSecret: string): Promise<boolean> {
  const [header, empty, signature] = detached.split('.');
  if (header === undefined || empty !== '' || signature === undefined) return false;
  const full = `${header}.${Buffer.from(content).toString('base64url')}.${signature}`;
  try {
    await compactVerify(full, new TextEncoder().encode(tokenSecret), { algorithms: ['HS256'] });
    return true;
  } catch {
    return false;
  }
}
