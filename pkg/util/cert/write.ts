import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CertKeyPair } from './types.js';

export interface KeyPairFiles {
  certFile: string;
  keyFile: string;
}

/** Writes <dir>/<name>.crt (0644) and <dir>/<name>.key (0600), creating dir. */
export async function writeKeyPair(dir: string, name: string, pair: CertKeyPair): Promise<KeyPairFiles> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  await writeFile(certFile, pair.cert, { mode: 0o644 });
  await writeFile(keyFile, pair.key, { mode: 0o600 });
  // mode above only applies to a new file; an old key file may have been readable.
  await chmod(keyFile, 0o600);
  return { certFile, keyFile };
}
