// The run's shared three-member etcd that requires client certificates on its client and
// peer ports (PKI as kubeadm lays it out, from etcd-tls.ts). Started once, on first use,
// by whichever e2e file asks for it (startReplicas({ etcd: 'mutual-tls' })), and stopped
// by the global fixture's teardown or at exit. Members are never killed here: the leader
// and quorum faults have their own cluster (e2e/etcd-tls-cluster.test.ts), so raft runs
// with unhurried timing that a loaded machine does not turn into elections.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { memberClient, startTestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { createEtcdPki, etcdClientArgs, etcdServerTLS, type EtcdPki } from './etcd-tls.js';

export interface SharedTLSEtcd {
  /** https:// client URL of each member. */
  endpoints: string[];
  pki: EtcdPki;
}

let started: Promise<{ etcd: SharedTLSEtcd; stop(): Promise<void> }> | undefined;

async function start(): Promise<{ etcd: SharedTLSEtcd; stop(): Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'test-shared-tls-etcd-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const pki = await createEtcdPki(join(root, 'pki'));
  const cluster = await startTestCluster(3, {
    tls: etcdServerTLS(pki), progressNotifyInterval: '5s', heartbeatMs: 200, electionMs: 4000,
  });
  return {
    etcd: { endpoints: cluster.endpoints, pki },
    async stop() {
      await cluster.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The shared mutual-TLS etcd, started now if this run has not started it yet. */
export async function sharedTLSEtcd(): Promise<SharedTLSEtcd> {
  started ??= start();
  try {
    return (await started).etcd;
  } catch (err) {
    started = undefined;
    throw err;
  }
}

/** Stops it if it was started (the global fixture's teardown). */
export async function stopSharedTLSEtcd(): Promise<void> {
  const s = started;
  started = undefined;
  if (s) await (await s.catch(() => undefined))?.stop();
}

/** kube-apiserver's flags for it, as kubeadm writes them. */
export function sharedTLSEtcdArgs(etcd: SharedTLSEtcd): string[] {
  return [`--etcd-servers=${etcd.endpoints.join(',')}`, ...etcdClientArgs(etcd.pki)];
}

/** A raw client of it, presenting the replicas' certificate; close it yourself. */
export function sharedTLSEtcdClient(etcd: SharedTLSEtcd): Etcd3 {
  const { ca, apiserverClient: c } = etcd.pki;
  return memberClient(etcd.endpoints, { caFile: ca.certFile, certFile: c.certFile, keyFile: c.keyFile }, 10_000);
}
