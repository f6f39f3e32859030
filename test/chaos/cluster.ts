// The cluster under test: a 3-member etcd cluster, 3 server replicas using all members,
// and a TCP load balancer in front of the replicas (our round-robin one, or HAProxy); all
// on 127.0.0.1. For network faults, one replica and one etcd member can each run in a
// network namespace of their own (netns.ts); for clock skew, a replica can be restarted
// with libfaketime preloaded.
import { startHAProxy, startReplicas, type Cluster } from '../harness/index.js';
import { startLoadBalancer } from '../../hack/lb/tcp-lb.js';
import { startTestCluster, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { startNamespace, type Namespace } from './netns.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EtcdTLSFiles } from '../../pkg/storage/etcd/tls/files.js';
import { createEtcdPki, etcdClientArgs, etcdServerTLS } from '../harness/etcd-tls.js';

export type LoadBalancerKind = 'node' | 'haproxy';

export interface ChaosClusterOptions {
  replicas?: number;
  /** Default node (hack/lb/tcp-lb.ts); haproxy needs HAPROXY_BIN (hack/install-haproxy.sh). */
  lb?: LoadBalancerKind;
  /** Run this replica in its own network namespace (for partition, delay, loss). */
  namespacedReplica?: number;
  /** Run this etcd member in its own network namespace (for its partition). */
  namespacedMember?: number;
}

export interface ChaosCluster {
  /** Three members requiring client certificates on client and peer ports, as production's. */
  etcd: TestCluster;
  /** What a raw client of those members presents (kubeadm's healthcheck-client). */
  etcdTLS: EtcdTLSFiles;
  replicas: Cluster;
  lb: { url: string };
  /** The namespaces asked for in the options. */
  replicaNs?: Namespace;
  memberNs?: Namespace;
  /** SIGKILL a replica (no graceful shutdown) and wait until it is gone. */
  killReplica(i: number): Promise<void>;
  /**
   * Restarts replica i with its clock `offset` ahead (libfaketime's FAKETIME syntax, e.g.
   * "+30s"), and keeps it so across later restarts. Needs FAKETIME_LIB (hack/install-faketime.sh).
   */
  skewClock(i: number, offset: string): Promise<void>;
  stop(): Promise<void>;
}

const portOf = (url: string): number => Number(new URL(url).port);

export async function startChaosCluster(opts: ChaosClusterOptions = {}): Promise<ChaosCluster> {
  const cleanup: Array<() => Promise<void>> = [];
  const stopAll = async (): Promise<void> => {
    for (const f of cleanup.reverse()) await f().catch(() => undefined);
    cleanup.length = 0;
  };
  try {
    let memberNs: Namespace | undefined;
    const mi = opts.namespacedMember;
    const pkiDir = mkdtempSync(join(tmpdir(), 'chaos-etcd-pki-'));
    cleanup.push(async () => rmSync(pkiDir, { recursive: true, force: true }));
    const pki = await createEtcdPki(pkiDir);
    const tls = etcdServerTLS(pki);
    const etcd = await startTestCluster(3, {
      tls,
      progressNotifyInterval: '1s',
      prefix: (i) => (i === mi && memberNs ? memberNs.prefix : []),
      async beforeStart(members) {
        if (mi === undefined) return;
        const m = members[mi]!;
        memberNs = await startNamespace(`etcd${mi}`, { outbound: members.filter((x) => x !== m).map((x) => portOf(x.peerUrl)) });
        cleanup.push(() => memberNs!.stop());
        await memberNs.addInbound(portOf(m.clientUrl));
        await memberNs.addInbound(portOf(m.peerUrl));
      },
    });
    cleanup.push(() => etcd.stop());

    const ri = opts.namespacedReplica;
    const replicaNs = ri === undefined ? undefined : await startNamespace(`replica${ri}`, { outbound: etcd.endpoints.map(portOf) });
    if (replicaNs) cleanup.push(() => replicaNs.stop());
    const skew = new Map<number, string>();
    const replicas = await startReplicas(opts.replicas ?? 3, {
      etcdEndpoint: etcd.endpoints.join(','),
      etcdPrefix: '/registry',
      extraArgs: etcdClientArgs(pki),
      // HAProxy checks /readyz anonymously, which AlwaysAllow turns off; under RBAC the
      // bootstrap roles let it (and the workload's admin is system:masters).
      ...(opts.lb === 'haproxy' ? { authorizationMode: 'RBAC' } : {}),
      async wrap(i, port) {
        const out: { prefix?: string[]; env?: Record<string, string> } = {};
        if (i === ri && replicaNs) {
          await replicaNs.addInbound(port);
          out.prefix = replicaNs.prefix;
        }
        const offset = skew.get(i);
        if (offset) {
          const lib = process.env['FAKETIME_LIB'];
          if (!lib) throw new Error('FAKETIME_LIB is not set: run `make chaos` (it installs faketime) or set it to libfaketimeMT.so.1');
          // Wall clock only: the monotonic clock (timers, durations) keeps running true.
          out.env = { LD_PRELOAD: lib, FAKETIME: offset, FAKETIME_DONT_FAKE_MONOTONIC: '1', FAKETIME_NO_CACHE: '1' };
        }
        return out;
      },
    });
    cleanup.push(() => replicas.stop());
    const ports = replicas.replicas.map((x) => x.port);
    let lb: { url: string };
    if (opts.lb === 'haproxy') {
      const h = await startHAProxy(ports);
      cleanup.push(() => h.stop());
      lb = h;
    } else {
      const l = await startLoadBalancer(() => ports);
      cleanup.push(() => l.close());
      lb = l;
    }
    const killReplica = async (i: number): Promise<void> => {
      const pid = replicas.replicas[i]!.pid;
      if (pid !== undefined) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
      }
      await replicas.stopReplica(i); // reaps it (SIGTERM to a dead process is harmless)
    };
    return {
      etcd, etcdTLS: tls.probe, replicas, lb, replicaNs, memberNs,
      killReplica,
      async skewClock(i, offset) {
        skew.set(i, offset);
        await replicas.stopReplica(i);
        await replicas.startReplica(i);
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
