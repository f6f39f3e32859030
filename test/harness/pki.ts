// The certificates and credentials a test cluster runs with, made by pkg/util/cert and
// written to one directory: a CA, a serving cert for 127.0.0.1/localhost, client certs
// (admin is CN=admin, O=system:masters), a static token file and a service-account key.
import { generateKeyPair, type KeyObject } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCA, issueCertificate, writeKeyPair, type CertKeyPair } from '../../pkg/util/cert/index.js';

export interface ClientUser {
  name: string;
  groups?: string[];
}

export interface TokenUser {
  token: string;
  name: string;
  /** Default: the name. */
  uid?: string;
  groups?: string[];
}

export interface IssuedCert extends CertKeyPair {
  certFile: string;
  keyFile: string;
}

export interface TestPki {
  dir: string;
  ca: IssuedCert;
  serving: IssuedCert;
  /** Client certificates by user name; always has "admin". */
  clients: Map<string, IssuedCert>;
  tokens: TokenUser[];
  /** Static token file (--token-auth-file), when tokens were given. */
  tokenFile?: string;
  /** RSA key pair for service-account tokens (PKCS#8 private, SPKI public). */
  serviceAccountKeyFile: string;
  serviceAccountPublicKeyFile: string;
}

export interface TestPkiOptions {
  clientUsers?: ClientUser[];
  tokens?: TokenUser[];
  /** Extra serving-cert names beyond localhost, kubernetes.default.svc... and 127.0.0.1. */
  dnsNames?: string[];
  ipAddresses?: string[];
}

export const admin: ClientUser = { name: 'admin', groups: ['system:masters'] };

const servingDNS = ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
const servingIPs = ['127.0.0.1', '10.0.0.1'];

export async function createTestPki(dir: string, opts: TestPkiOptions = {}): Promise<TestPki> {
  await mkdir(dir, { recursive: true });
  const caPair = await generateCA('test-cluster-ca');
  const ca = { ...caPair, ...(await writeKeyPair(dir, 'ca', caPair)) };
  const servingPair = await issueCertificate(caPair, {
    cn: 'kube-apiserver',
    usage: 'server',
    dnsNames: [...servingDNS, ...(opts.dnsNames ?? [])],
    ipAddresses: [...servingIPs, ...(opts.ipAddresses ?? [])],
  });
  const serving = { ...servingPair, ...(await writeKeyPair(dir, 'apiserver', servingPair)) };
  const clients = new Map<string, IssuedCert>();
  for (const u of [admin, ...(opts.clientUsers ?? [])]) {
    const pair = await issueCertificate(caPair, { cn: u.name, organizations: u.groups ?? [], usage: 'client' });
    clients.set(u.name, { ...pair, ...(await writeKeyPair(dir, `client-${fileSafe(u.name)}`, pair)) });
  }
  const tokens = opts.tokens ?? [];
  let tokenFile: string | undefined;
  if (tokens.length > 0) {
    tokenFile = join(dir, 'tokens.csv');
    await writeFile(tokenFile, tokens.map(tokenLine).join(''), { mode: 0o600 });
  }
  const sa = await serviceAccountKeys();
  const serviceAccountKeyFile = join(dir, 'sa.key');
  const serviceAccountPublicKeyFile = join(dir, 'sa.pub');
  await writeFile(serviceAccountKeyFile, sa.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  await writeFile(serviceAccountPublicKeyFile, sa.publicKey.export({ format: 'pem', type: 'spki' }));
  return { dir, ca, serving, clients, tokens, tokenFile, serviceAccountKeyFile, serviceAccountPublicKeyFile };
}

let saKeys: Promise<{ privateKey: KeyObject; publicKey: KeyObject }> | undefined;

/**
 * The service-account signing pair, made once per test process: an RSA-2048 key costs
 * about 0.15 s of CPU, and a run starts some 190 replicas. Clusters stay apart all the
 * same: each has its own CA and etcd prefix, and no test carries a token across them.
 */
function serviceAccountKeys(): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  saKeys ??= new Promise((resolve, reject) => {
    generateKeyPair('rsa', { modulusLength: 2048 }, (err, publicKey, privateKey) => (err ? reject(err) : resolve({ publicKey, privateKey })));
  });
  return saKeys;
}

/** One line of a static token file: token,user,uid,"group1,group2". */
function tokenLine(t: TokenUser): string {
  const groups = t.groups && t.groups.length > 0 ? `,"${t.groups.join(',')}"` : '';
  return `${t.token},${t.name},${t.uid ?? t.name}${groups}\n`;
}

function fileSafe(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/**
 * The front-proxy PKI of an aggregated cluster: a CA the extension servers (and the
 * replicas' requestheader authenticator) trust, and the client certificate the replicas
 * present when they proxy (--proxy-client-cert-file).
 */
export interface FrontProxyPki {
  ca: IssuedCert;
  client: IssuedCert;
  /** The proxy client certificate's CN (for --requestheader-allowed-names). */
  clientName: string;
}

export async function createFrontProxyPki(dir: string, clientName = 'front-proxy-client'): Promise<FrontProxyPki> {
  await mkdir(dir, { recursive: true });
  const caPair = await generateCA('front-proxy-ca');
  const ca = { ...caPair, ...(await writeKeyPair(dir, 'front-proxy-ca', caPair)) };
  const pair = await issueCertificate(caPair, { cn: clientName, usage: 'client' });
  const client = { ...pair, ...(await writeKeyPair(dir, 'front-proxy-client', pair)) };
  return { ca, client, clientName };
}

/** kube-apiserver's aggregator flags for that PKI, as kubeadm sets them. */
export function frontProxyArgs(fp: FrontProxyPki): string[] {
  return [
    `--requestheader-client-ca-file=${fp.ca.certFile}`,
    `--requestheader-allowed-names=${fp.clientName}`,
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    `--proxy-client-cert-file=${fp.client.certFile}`,
    `--proxy-client-key-file=${fp.client.keyFile}`,
  ];
}
