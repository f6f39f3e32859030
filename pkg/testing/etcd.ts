// One etcd per test process, shared by every test server (each under its own prefix):
// $TEST_ETCD_ENDPOINT or the `etcd` option when given, else an etcd started on first use
// in a temp dir, stopped and removed when the process exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../storage/etcd/embedded.js';

let shared: Promise<string> | undefined;

export function sharedEtcd(): Promise<string> {
  const preset = process.env['TEST_ETCD_ENDPOINT'];
  if (preset) return Promise.resolve(preset);
  shared ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kube-apiserver-ts-etcd-'));
    process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
    // Not kept alive: the test run ends when its tests do; the exit hook stops etcd.
    const etcd = await startEmbeddedEtcd({ dataDir, keepProcessAlive: false });
    return etcd.endpoint;
  })();
  shared.catch(() => { shared = undefined; });
  return shared;
}
