// A mutual-TLS etcd for tests, with its PKI laid out as kubeadm lays out its own
// (etcd/ca, etcd/server, etcd/peer, etcd/healthcheck-client, apiserver-etcd-client),
// plus a client pair from another CA, for the failure cases.
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd, type EmbeddedEtcdTLS } from '../../pkg/storage/etcd/embedded.js';
import { generateCA, issueCertificate, writeKeyPair } from '../../pkg/util/cert/index.js';
import type { IssuedCert } from './pki.js';
import type { TestEtcd } from './etcd.js';

export interface EtcdPki {
  dir: string;
  ca: IssuedCert;
  server: IssuedCert;
  peer: IssuedCert;
  healthcheckClient: IssuedCert;
  /** What the replicas present: --etcd-certfile/--etcd-keyfile. */
  apiserverClient: IssuedCert;
  /** A CA etcd does not know, and a client pair it signed. */
  otherCA: IssuedCert;
  strangerClient: IssuedCert;
}

async function issue(dir: string, name: string, ca: IssuedCert, cn: string, usage: 'server' | 'client' | 'peer', organizations?: string[]): Promise<IssuedCert> {
  const pair = await issueCertificate(ca, {
    cn, usage, organizations,
    ...(usage === 'client' ? {} : { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] }),
  });
  return { ...pair, ...(await writeKeyPair(dir, name, pair)) };
}

/** Writes the PKI under dir (dir/etcd/... and dir/apiserver-etcd-client.*). */
export async function createEtcdPki(dir: string): Promise<EtcdPki> {
  const etcdDir = join(dir, 'etcd');
  const caPair = await generateCA('etcd-ca');
  const ca = { ...caPair, ...(await writeKeyPair(etcdDir, 'ca', caPair)) };
  const otherPair = await generateCA('some-other-ca');
  const otherCA = { ...otherPair, ...(await writeKeyPair(join(dir, 'other'), 'ca', otherPair)) };
  return {
    dir, ca, otherCA,
    server: await issue(etcdDir, 'server', ca, 'kube-etcd', 'peer'),
    peer: await issue(etcdDir, 'peer', ca, 'kube-etcd-peer', 'peer'),
    healthcheckClient: await issue(etcdDir, 'healthcheck-client', ca, 'kube-etcd-healthcheck-client', 'client'),
    apiserverClient: await issue(dir, 'apiserver-etcd-client', ca, 'kube-apiserver-etcd-client', 'client'),
    strangerClient: await issue(join(dir, 'other'), 'client', otherCA, 'stranger', 'client'),
  };
}

/** etcd's TLS settings for that PKI: client certificates required on both ports. */
export function etcdServerTLS(pki: EtcdPki, clientCertAuth = true): EmbeddedEtcdTLS {
  return {
    certFile: pki.server.certFile, keyFile: pki.server.keyFile, trustedCAFile: pki.ca.certFile, clientCertAuth,
    peerCertFile: pki.peer.certFile, peerKeyFile: pki.peer.keyFile,
    probe: { caFile: pki.ca.certFile, certFile: pki.healthcheckClient.certFile, keyFile: pki.healthcheckClient.keyFile },
  };
}

/** kube-apiserver's flags for the etcd client side, as kubeadm writes them. */
export function etcdClientArgs(pki: EtcdPki, client: IssuedCert = pki.apiserverClient, caFile = pki.ca.certFile): string[] {
  return [`--etcd-cafile=${caFile}`, `--etcd-certfile=${client.certFile}`, `--etcd-keyfile=${client.keyFile}`];
}

export interface TLSTestEtcd extends TestEtcd {
  pki: EtcdPki;
}

/** One member requiring client certificates, with a fresh PKI; stop() removes both. */
export async function startTLSEtcd(): Promise<TLSTestEtcd> {
  const root = mkdtempSync(join(tmpdir(), 'test-tls-etcd-'));
  try {
    const pki = await createEtcdPki(join(root, 'pki'));
    const dataDir = join(root, 'data');
    const etcd = await startEmbeddedEtcd({ dataDir, tls: etcdServerTLS(pki) });
    return {
      endpoint: etcd.endpoint, pid: etcd.pid, dataDir, pki,
      async stop() {
        await etcd.stop();
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
}
