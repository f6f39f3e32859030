// The etcd that tests talk to. The mocha global fixture (global.ts) starts one for the
// whole run and publishes it in TEST_ETCD_ENDPOINT; a test run without the fixture gets
// one started lazily on first use, so `mocha some.test.js` works on its own.
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Etcd3 } from 'etcd3';
import { startEmbeddedEtcd } from '../../pkg/storage/etcd/embedded.js';
import { makeScratchDir } from '../../pkg/storage/etcd/watcher/testing/scratch-dir.js';

export interface TestEtcd {
  endpoint: string;
  pid: number;
  dataDir: string;
  /** Stops etcd and removes its data dir. */
  stop(): Promise<void>;
}

/** keepProcessAlive: false lets the test process end while etcd still runs (it is stopped on exit). */
export async function startTestEtcd(opts: { keepProcessAlive?: boolean } = {}): Promise<TestEtcd> {
  const dataDir = makeScratchDir('test-etcd-');
  try {
    const etcd = await startEmbeddedEtcd({ dataDir, keepProcessAlive: opts.keepProcessAlive });
    return {
      endpoint: etcd.endpoint,
      pid: etcd.pid,
      dataDir,
      async stop() {
        await etcd.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

let lazy: Promise<string> | undefined;

/** The shared test etcd's client URL (from the global fixture, or started now). */
export function testEtcdEndpoint(): Promise<string> {
  const fromEnv = process.env['TEST_ETCD_ENDPOINT'];
  if (fromEnv) return Promise.resolve(fromEnv);
  // Without the fixture nobody stops it, so it must not keep mocha from ending.
  lazy ??= startTestEtcd({ keepProcessAlive: false }).then((etcd) => {
    // The embedded module terminates etcd on exit; the data dir goes with it.
    process.once('exit', () => rmSync(etcd.dataDir, { recursive: true, force: true }));
    process.env['TEST_ETCD_ENDPOINT'] = etcd.endpoint;
    return etcd.endpoint;
  });
  return lazy;
}

/** A client of the shared test etcd; close it when done. */
export async function testEtcdClient(): Promise<Etcd3> {
  return new Etcd3({ hosts: await testEtcdEndpoint() });
}
