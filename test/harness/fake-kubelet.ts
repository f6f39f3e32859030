// A stand-in kubelet on 127.0.0.1 for the node-facing subresources: HTTPS with its own
// CA (from pki.ts) whose own API requires the apiserver's kubelet client certificate. It serves
// /containerLogs (follow streams a line at a time until released) and echoes any other
// request as JSON. Upgrades on /exec, /attach and /portForward either get a 101 and every
// byte echoed (`upgrades: 'echo'`, the default: the relay itself under test) or are
// served as the kubelet does (`upgrades: 'serve'`: remotecommand over SPDY/3.1 or
// WebSocket, port forwarding over SPDY/3.1; see streaming/). Every request is recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, type TestPki } from './pki.js';
import {
  parseStreamRequest, portForwardProtocol, serveExecOverSpdy, serveExecOverWebSocket, servePortForwardOverSpdy,
  spdyExecProtocols, webSocketExecProtocols, type StreamSession,
} from './streaming/remote-command.js';
import { handshakeResponse, isWebSocketUpgrade, offeredSubprotocols } from './streaming/websocket.js';

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
  /** Streaming sessions served (with `upgrades: 'serve'`), in the order they began. */
  sessions: StreamSession[];
  /** Ends every following log stream. */
  endFollows(): void;
  /** Follow streams currently open. */
  openFollows(): number;
  stop(): Promise<void>;
}

export interface FakeKubeletOptions {
  /** 'echo' (default): 101 and an echo of every byte; 'serve': the kubelet's protocols. */
  upgrades?: 'echo' | 'serve';
}

const clientName = 'kube-apiserver-kubelet-client';

export async function startFakeKubelet(opts: FakeKubeletOptions = {}): Promise<FakeKubelet> {
  const dir = mkdtempSync(join(tmpdir(), 'fake-kubelet-'));
  const pki = await createTestPki(dir, { clientUsers: [{ name: clientName, groups: ['system:masters'] }] });
  const requests: KubeletRequest[] = [];
  const sessions: StreamSession[] = [];
  const upgraded = new Set<Duplex>();
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
    socket.on('error', () => socket.destroy());
    upgraded.add(socket);
    socket.on('close', () => upgraded.delete(socket));
    if (opts.upgrades === 'serve') { serveUpgrade(req, socket, head); return; }
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
    socket.pipe(socket);
  });

  function refuse(socket: Duplex, status: string, text: string): void {
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
  }

  /** The kubelet's httpstream handshake: the first protocol the client offers that we speak. */
  function negotiate(offered: string[], supported: string[]): string | undefined {
    return offered.find((p) => supported.includes(p));
  }

  function serveUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    if (!(req.socket as TLSSocket).authorized) return refuse(socket, '401 Unauthorized', 'Unauthorized');
    const ws = isWebSocketUpgrade(req);
    const spdy = String(req.headers.upgrade ?? '').toLowerCase() === 'spdy/3.1';
    const offered = ws ? offeredSubprotocols(req) : String(req.headers['x-stream-protocol-version'] ?? '').split(',').map((p) => p.trim()).filter(Boolean);
    const streamReq = parseStreamRequest(url);
    const pf = /^\/portForward\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    const supported = streamReq ? (ws ? webSocketExecProtocols : spdyExecProtocols) : pf && spdy ? [portForwardProtocol] : [];
    const protocol = negotiate(offered, supported);
    if ((!ws && !spdy) || (!streamReq && !pf)) return refuse(socket, '400 Bad Request', `unsupported upgrade ${req.headers.upgrade} on ${url.pathname}`);
    if (!protocol) {
      return refuse(socket, '403 Forbidden', `unable to upgrade: unable to negotiate protocol: client supports ${JSON.stringify(offered)}, server supports ${JSON.stringify(supported)}`);
    }
    const session: StreamSession = { kind: streamReq?.kind ?? 'portForward', transport: ws ? 'websocket' : 'spdy', protocol, request: streamReq, input: '', resizes: [], ports: [] };
    if (ws) {
      const response = handshakeResponse(req, protocol);
      if (!response) return refuse(socket, '400 Bad Request', 'bad websocket handshake');
      sessions.push(session);
      socket.write(response);
      return serveExecOverWebSocket(socket, head, streamReq!, protocol, session);
    }
    sessions.push(session);
    socket.write(['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: SPDY/3.1', `X-Stream-Protocol-Version: ${protocol}`, '', ''].join('\r\n'));
    if (streamReq) return serveExecOverSpdy(socket, head, streamReq, session);
    return servePortForwardOverSpdy(socket, head, `${decodeURIComponent(pf![1])}/${decodeURIComponent(pf![2])}`, session);
  }

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
    sessions,
    endFollows: () => {
      for (const [r, timer] of follows) { clearInterval(timer); follows.delete(r); r.end('end of follow\n'); }
    },
    openFollows: () => follows.size,
    async stop() {
      for (const [r, timer] of follows) { clearInterval(timer); r.destroy(); }
      for (const socket of upgraded) socket.destroy();
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
