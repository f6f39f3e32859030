// A token webhook for the authentication tests: TLS with a client certificate
// required, answering TokenReviews per token value, with a kubeconfig pointing at it.
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { generateCA, issueCertificate } from '../../pkg/util/cert/index.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

export interface WebhookServer { url: string; kubeconfig: string; calls: Map<string, number>; versions: string[]; stop(): Promise<void> }

export async function startWebhook(dir: string, version: string): Promise<WebhookServer> {
  const ca = await generateCA('webhook-ca');
  const serving = await issueCertificate(ca, { cn: '127.0.0.1', usage: 'server', ipAddresses: ['127.0.0.1'] });
  const client = await issueCertificate(ca, { cn: 'kube-apiserver', usage: 'client' });
  const calls = new Map<string, number>();
  const versions: string[] = [];
  const server: Server = createServer({ cert: serving.cert, key: serving.key, ca: ca.cert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString()) as { apiVersion: string; spec: { token: string; audiences?: string[] } };
      versions.push(review.apiVersion);
      const token = review.spec.token;
      calls.set(token, (calls.get(token) ?? 0) + 1);
      const reply = (status: unknown, apiVersion = review.apiVersion) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion, kind: 'TokenReview', status }));
      };
      switch (token) {
        case 'wh-good': return reply({ authenticated: true, user: { username: 'wh-user', uid: 'wh-1', groups: ['wh-group'], extra: { scopes: ['read'] } } });
        case 'wh-refused': return reply({ authenticated: false, error: 'token revoked upstream' });
        case 'wh-silent': return reply({ authenticated: false });
        case 'wh-other-version': return reply({ authenticated: true, user: { username: 'x' } }, review.apiVersion.endsWith('v1') ? 'authentication.k8s.io/v1beta1' : 'authentication.k8s.io/v1');
        case 'wh-aud': return reply({ authenticated: true, user: { username: 'aud-user' }, audiences: ['wh-aud'] });
        default: return reply({ authenticated: false });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate`;
  const kubeconfig = join(dir, `webhook-${version}.kubeconfig`);
  await writeFile(join(dir, 'webhook-client.crt'), client.cert);
  await writeFile(join(dir, 'webhook-client.key'), client.key);
  await writeFile(kubeconfig, stringify({
    apiVersion: 'v1', kind: 'Config',
    clusters: [{ name: 'wh', cluster: { server: url, 'certificate-authority-data': b64(ca.cert) } }],
    // Relative file names resolve against the kubeconfig's directory.
    users: [{ name: 'apiserver', user: { 'client-certificate': 'webhook-client.crt', 'client-key': 'webhook-client.key' } }],
    contexts: [{ name: 'wh', context: { cluster: 'wh', user: 'apiserver' } }],
    'current-context': 'wh',
  }));
  return {
    url, kubeconfig, calls, versions,
    stop: async () => { server.closeAllConnections(); await new Promise((r) => server.close(() => r(undefined))); },
  };
}

