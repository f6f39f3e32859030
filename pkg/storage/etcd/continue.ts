// Continue tokens in upstream's format: unpadded base64url of JSON {v, rv, start}, where
// start is the next key relative to the listed prefix. Any replica can decode them. An
// rv of -1 means "continue at the newest revision" (handed out when the token's own
// revision was compacted away).
import { StatusError } from '../../runtime/errors.js';
import { StorageError } from '../interfaces.js';

const tokenVersion = 'meta.k8s.io/v1';

export interface ContinueToken {
  /** Revision to read at; -1 for the newest. */
  rv: number;
  /** Next key to read, relative to the list prefix. */
  start: string;
}

export function encodeContinue(rv: number, nextKeyRelative: string): string {
  return Buffer.from(JSON.stringify({ v: tokenVersion, rv, start: nextKeyRelative })).toString('base64url');
}

const invalidRV = 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';

export function decodeContinue(token: string, prefix: string): ContinueToken {
  const bad = (why: string) => new StorageError('InvalidContinue', prefix, `invalid continue token: ${why}`);
  let parsed: unknown;
  try {
    // Upstream writes base64url without padding; accept standard base64 as well.
    const raw = Buffer.from(token, token.includes('+') || token.includes('/') ? 'base64' : 'base64url');
    if (raw.length === 0) throw new Error('empty');
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw bad(`${invalidRV}: ${(err as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw bad(invalidRV);
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== tokenVersion) throw bad(`continue key is not valid: server does not recognize this encoded version ${String(p.v ?? '')}`);
  // Upstream reads rv as an int64 and refuses 1e+30; a revision past 2^53 cannot be real.
  if (typeof p.rv !== 'number' || !Number.isSafeInteger(p.rv) || p.rv === 0 || p.rv < -1) throw bad(invalidRV);
  if (typeof p.start !== 'string' || p.start.length === 0) throw bad('continue key is not valid: encoded start key empty');
  // Keys are relative; refuse anything that would escape the listed prefix, as upstream
  // does by requiring the key to be unchanged by path cleaning.
  const key = p.start.startsWith('/') ? p.start : `/${p.start}`;
  if (cleanPath(key) !== key) throw bad(`continue key is not valid: ${p.start}`);
  return { rv: p.rv, start: key.slice(1) };
}

/** Go's path.Clean for absolute paths (the only kind we pass). */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

const inconsistentContinue = 'The provided continue parameter is too old to display a consistent list result. '
  + 'You can start a new list without the continue parameter, or use the continue token in this response to '
  + 'retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - '
  + 'objects that were created, modified, or deleted between the time the first chunk was returned and now may '
  + 'show up in the list.';

/**
 * 410 for a continue token whose revision etcd compacted. As upstream, the Status carries
 * a fresh token (rv -1) in metadata.continue, to finish the list inconsistently if wanted.
 */
export class ExpiredContinueError extends StatusError {
  constructor(readonly continueToken: string) {
    super(410, 'Expired', inconsistentContinue);
  }

  override toStatus() {
    const s = super.toStatus();
    s.metadata = { continue: this.continueToken };
    return s;
  }
}
