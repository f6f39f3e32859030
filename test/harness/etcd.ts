// The etcd that tests talk to. The mocha global fixture (global.ts) starts one for the
// whole run and publishes it in TEST_ETCD_ENDPOINT; a test run without the fixture gets
// one started lazily on first use, so `mocha some.test.js` works on its own.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { startEmbeddedEtcd } from '../../pkg/storage/etcd/embedded.js';

export interface TestEtcd {
  endpoint: string;
  pid: number;
  dataDir: string;
  /** Stops etcd and removes its data dir. */
  stop(): Promise<void>;
}

/** Memory-backed storage when there is some: etcd fsyncs every write. */
function scratchRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** keepProcessAlive: false lets the test process end while etcd still runs (it is stopped on exit). */
const dirPrefix = 'test-etcd-';

/**
 * Data dirs of test runs that were killed (no exit hook ran) would stay in memory for
 * good: remove those no running process names and that are not brand new.
 */
function sweepStaleDataDirs(root: string): void {
  let inUse: string;
  try {
    inUse = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((pid) => {
      try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { return ''; }
    }).join('\n');
  } catch {
    return; // no /proc: leave everything alone
  }
  for (const name of readdirSync(root)) {
    if (!name.startsWith(dirPrefix)) continue;
    const dir = join(root, name);
    try {
      if (Date.now() - statSync(dir).mtimeMs < 5 * 60_000 || inUse.includes(dir)) continue;
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // another run removed it first, or it is not ours to remove
    }
  }
}

export async function startTestEtcd(opts: { keepProcessAlive?: boolean } = {}): Promise<TestEtcd> {
  sweepStaleDataDirs(scratchRoot());
  const dataDir = mkdtempSync(join(scratchRoot(), dirPrefix));
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
