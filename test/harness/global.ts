// Mocha global fixture and root hooks, loaded with `--require dist/test/harness/global.js`:
// one etcd for the whole run (TEST_ETCD_ENDPOINT), the shared mutual-TLS etcd stopped if
// a file started it, and server logs printed when a test fails.
// An endpoint already in TEST_ETCD_ENDPOINT (an external etcd) is used as is.
import { startTestEtcd, type TestEtcd } from './etcd.js';
import { dumpLogs } from './failure-logs.js';
import { stopSharedTLSEtcd } from './shared-tls-etcd.js';

let etcd: TestEtcd | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  if (process.env['TEST_ETCD_ENDPOINT']) return;
  etcd = await startTestEtcd();
  process.env['TEST_ETCD_ENDPOINT'] = etcd.endpoint;
}

export async function mochaGlobalTeardown(): Promise<void> {
  // Started by the first e2e file that runs its replicas on it, if any did.
  await stopSharedTLSEtcd();
  if (!etcd) return;
  await etcd.stop();
  delete process.env['TEST_ETCD_ENDPOINT'];
  etcd = undefined;
}

export const mochaHooks = {
  afterEach(this: Mocha.Context): void {
    const t = this.currentTest;
    if (t?.state === 'failed') dumpLogs(`after failure of "${t.fullTitle()}"`);
  },
};
