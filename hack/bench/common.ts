// What every benchmark shares: flags, a clock, and the setting it measures in: its own
// etcd (data in /dev/shm when there is one), two replicas on 127.0.0.1 and a raw etcd3
// client beside them, all torn down at the end.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { startEmbeddedEtcd } from '../../pkg/storage/etcd/embedded.js';
import { startReplicas, type Cluster } from '../../test/harness/index.js';

/** `--name=value` from the command line, as a number. */
export function arg(name: string, def: number): number {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
}

export const now = (): number => Number(process.hrtime.bigint()) / 1e6;

export interface BenchSetting { cluster: Cluster; raw: Etcd3; prefix: string; etcdEndpoint: string; dataDir: string }

export async function withBenchCluster(label: string, run: (s: BenchSetting) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), `bench-${label}-etcd-`));
  const etcd = await startEmbeddedEtcd({ dataDir });
  const prefix = `/bench-${label}-${Date.now().toString(36)}`;
  // The raw etcd side ranges over exactly the seeded keys, so no controller may add objects
  // (the root CA publisher would put kube-root-ca.crt in the namespace).
  const cluster = await startReplicas(2, { etcdEndpoint: etcd.endpoint, etcdPrefix: prefix, extraArgs: ['--controllers=*,-root-ca-cert-publisher'] });
  // gRPC's default 4 MiB receive limit would refuse a 10,000-object range in one message.
  const raw = new Etcd3({ hosts: etcd.endpoint, grpcOptions: { 'grpc.max_receive_message_length': 256 * 1024 * 1024 } });
  try {
    await run({ cluster, raw, prefix, etcdEndpoint: etcd.endpoint, dataDir });
  } finally {
    raw.close();
    await cluster.stop();
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs a benchmark's main and exits with its outcome. */
export function runMain(main: () => Promise<void>): void {
  main().then(() => process.exit(0), (err: Error) => {
    console.error(err);
    process.exit(1);
  });
}
