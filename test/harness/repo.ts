import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The checkout this code was built from: the nearest ancestor holding hack/install-etcd.sh. */
export function repoRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'hack', 'install-etcd.sh'))) return (root = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error(`no repository root above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}
