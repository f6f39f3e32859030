// Helpers for hack/local-up-cluster.sh, which stays a plain shell script:
//   node local-up-cli.js pki <dir> <replicas> <basePort>   PKI in <dir>/pki, kubeconfigs in <dir>;
//     with ETCD_TLS=1 also the rest of kubeadm's layout: apiserver-kubelet-client,
//     front-proxy-ca, front-proxy-client, etcd/{ca,server,peer,healthcheck-client},
//     apiserver-etcd-client
//   node local-up-cli.js wait <dir> <url> [timeoutSeconds]  until <url>/readyz answers 200
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from './http.js';
import { writeKubeconfig } from './kubeconfig.js';
import { createFrontProxyPki, createTestPki } from './pki.js';
import { createEtcdPki } from './etcd-tls.js';
import { issueCertificate, writeKeyPair } from '../../pkg/util/cert/index.js';

async function pki(dir: string, replicas: number, basePort: number): Promise<void> {
  const p = await createTestPki(join(dir, 'pki'));
  const admin = p.clients.get('admin')!;
  if (process.env['ETCD_TLS'] === '1') {
    const kubelet = await issueCertificate(p.ca, { cn: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], usage: 'client' });
    await writeKeyPair(join(dir, 'pki'), 'apiserver-kubelet-client', kubelet);
    await createFrontProxyPki(join(dir, 'pki'));
    await createEtcdPki(join(dir, 'pki'));
  }
  for (let i = 0; i < replicas; i++) {
    const path = writeKubeconfig(join(dir, `replica-${i}.kubeconfig`), {
      server: `https://127.0.0.1:${basePort + i}`,
      ca: p.ca.cert,
      user: { name: 'admin', cert: admin.cert, key: admin.key },
      clusterName: `local-up-${i}`,
    });
    process.stdout.write(`${path}\n`);
  }
}

async function wait(dir: string, url: string, timeoutSeconds: number): Promise<void> {
  const read = (f: string): string => readFileSync(join(dir, 'pki', f), 'utf8');
  const creds = { ca: read('ca.crt'), cert: read('client-admin.crt'), key: read('client-admin.key') };
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await request(`${url}/readyz`, { ...creds, timeoutMs: 2000 });
      if (res.status === 200) return;
      last = `HTTP ${res.status} ${res.text.slice(0, 200)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutSeconds} s: ${last}`);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  if (cmd === 'pki' && args.length === 3) await pki(args[0]!, Number(args[1]), Number(args[2]));
  else if (cmd === 'wait' && args.length >= 2) await wait(args[0]!, args[1]!, Number(args[2] ?? 60));
  else throw new Error('usage: local-up-cli.js pki <dir> <replicas> <basePort> | wait <dir> <url> [timeoutSeconds]');
} catch (err) {
  process.stderr.write(`local-up: ${(err as Error).message}\n`);
  process.exit(1);
}
