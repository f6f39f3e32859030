// Continue tokens in upstream's format: base64(JSON {v, rv, start}) where start is the
// next key relative to the listed prefix. Any replica can decode them.
import { StorageError } from '../interfaces.js';

const tokenVersion = 'meta.k8s.io/v1';

export interface ContinueToken {
  rv: number;
  /** Next key to read, relative to the list prefix. */
  start: string;
}

export function encodeContinue(rv: number, nextKeyRelative: string): string {
  return Buffer.from(JSON.stringify({ v: tokenVersion, rv, start: nextKeyRelative })).toString('base64');
}

export function decodeContinue(token: string, prefix: string): ContinueToken {
  const bad = (why: string) => new StorageError('InvalidContinue', prefix, `continue key is not valid: ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw bad('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  const p = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (p.v !== tokenVersion) throw bad('server does not recognize this encoded key');
  if (typeof p.rv !== 'number' || !Number.isInteger(p.rv) || p.rv <= 0) {
    throw bad('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (typeof p.start !== 'string' || p.start.length === 0) throw bad('encoded start key empty');
  // Keys are relative; refuse anything that would escape the listed prefix.
  const start = p.start.replace(/^\/+/, '');
  if (start.split('/').some((seg) => seg === '..' || seg === '.')) throw bad('path traversal attempt detected');
  return { rv: p.rv, start };
}
