// A stand-in kubelet on 127.0.0.1 for the node-facing subresources: HTTPS with its own
// CA (from pki.ts) whose own API requires the apiserver's kubelet client certificate. It serves
// /containerLogs (follow streams a line at a time until released), answers upgrades on
// /exec, /attach and /portForward with 101 and then echoes every byte, and echoes any
// other request as JSON. Every request is recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, type TestPki } from './pki.js';

export interface KubeletRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** CN of the client certificate the apiserver presented. */
  clientCN: string;
  body: string;
}

export interface FakeKubelet {
  port: number;
  pki: TestPki;
  /** Flags that make an apiserver trust this kubelet and authenticate to it. */
  apiserverArgs: string[];
  requests: KubeletRequest[];
  /** Ends every following log stream. */
  endFollows(): void;
  /** Follow streams currently open. */
  openFollows(): number;
  stop(): Promise<void>;
}

const clientName = 'kube-apiserver-kubelet-client';

export async function startFakeKubelet(): Promise<FakeKubelet> {
  const dir = mkdtempSync(join(tmpdir(), 'fake-kubelet-'));
  const pki = await createTestPki(dir, { clientUsers: [{ name: clientName, groups: ['system:masters'] }] });
  const requests: KubeletRequest[] = [];
  const follows = new Map<ServerResponse, NodeJS.Timeout>();
  const clientCN = (req: IncomingMessage) => String((req.socket as TLSSocket).getPeerCertificate?.()?.subject?.CN ?? '');

  const server: Server = createServer({ cert: pki.serving.cert, key: pki.serving.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, clientCN: clientCN(req), body });
      serve(req, res, body);
    });
  });

  function serve(req: IncomingMessage, res: ServerResponse, body: string): void {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    // The kubelet's own API needs the apiserver's client certificate; pods proxied to do not.
    const authorized = (req.socket as TLSSocket).authorized;
    if (/^\/(containerLogs|exec|attach|portForward)\//.test(url.pathname) && !authorized) {
      res.writeHead(401, { 'Content-Type': 'text/plain' });
      res.end('Unauthorized');
      return;
    }
    const logs = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (logs) {
      const [, ns, pod, container] = logs;
      if (container === 'missing') { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end('container not found'); return; }
      if (container === 'waiting') { res.writeHead(400, { 'Content-Type': 'text/plain' }); res.end(`container "waiting" in pod "${pod}" is waiting to start: ContainerCreating`); return; }
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write(`log ${ns}/${pod}/${container} ${url.search}\n`);
      if (url.searchParams.get('follow') !== 'true') { res.end(); return; }
      // A line now and then until released: the apiserver must pass each one on as it comes.
      let n = 0;
      const timer = setInterval(() => res.write(`follow line ${++n}\n`), 100);
      follows.set(res, timer);
      const done = () => { clearInterval(timer); follows.delete(res); };
      res.on('close', done);
      res.on('finish', done);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Kubelet': 'fake', 'Access-Control-Allow-Origin': '*' });
    res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, clientCN: clientCN(req), body: '' });
    const protocol = String(req.headers['x-stream-protocol-version'] ?? '').split(',')[0].trim();
    socket.write([
      'HTTP/1.1 101 Switching Protocols',
      'Connection: Upgrade',
      `Upgrade: ${req.headers.upgrade}`,
      ...(protocol ? [`X-Stream-Protocol-Version: ${protocol}`] : []),
      'X-Fake-Kubelet: upgraded',
      '', '',
    ].join('\r\n'));
    if (head.length > 0) socket.write(head);
    socket.on('error', () => socket.destroy());
    socket.pipe(socket);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const client = pki.clients.get(clientName)!;
  return {
    port,
    pki,
    apiserverArgs: [
      `--kubelet-certificate-authority=${pki.ca.certFile}`,
      `--kubelet-client-certificate=${client.certFile}`,
      `--kubelet-client-key=${client.keyFile}`,
      '--kubelet-timeout=2s',
    ],
    requests,
    endFollows: () => {
      for (const [r, timer] of follows) { clearInterval(timer); follows.delete(r); r.end('end of follow\n'); }
    },
    openFollows: () => follows.size,
    async stop() {
      for (const [r, timer] of follows) { clearInterval(timer); r.destroy(); }
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Node whose kubelet is the fake one: InternalIP 127.0.0.1 and its port. */
export function fakeKubeletNode(name: string, port: number): Record<string, unknown> {
  return {
    apiVersion: 'v1', kind: 'Node', metadata: { name },
    status: {
      addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: port } },
    },
  };
}
