// A test extension API server (an aggregated API, like sample-apiserver's wardle):
// HTTPS on 127.0.0.1 with a serving certificate for <service>.<namespace>.svc from its
// own CA. Every request must come from the aggregator: a client certificate signed by
// the front-proxy CA with an allowed CN; the caller's identity is read from the
// X-Remote-* headers by this repository's requestheader authenticator. It serves
// discovery (aggregated and legacy) for wardle.example.com/v1alpha1 and a namespaced
// `flunders` resource (get, list, watch), its OpenAPI (/openapi/v2, /openapi/v3 and the
// group version's v3 document, see extension-openapi.ts), and records every request with
// its identity.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestHeaderAuthenticator } from '../../pkg/authentication/requestheader/index.js';
import type { UserInfo } from '../../pkg/authentication/user.js';
import { etagOf, openAPIV2, openAPIV3Document, v3Key } from './extension-openapi.js';
import { createTestPki, type FrontProxyPki, type TestPki } from './pki.js';

export const wardleGroup = 'wardle.example.com';
export const wardleVersion = 'v1alpha1';
const groupVersion = `${wardleGroup}/${wardleVersion}`;

export interface ExtensionRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** CN of the verified client certificate ('' when none verified). */
  clientCN: string;
  /** The identity asserted in X-Remote-*; undefined when the request was refused. */
  user?: UserInfo;
}

export interface ExtensionServerOptions {
  /** The Service the APIService names; the serving certificate is for <service>.<namespace>.svc. */
  service: string;
  namespace: string;
  frontProxy: FrontProxyPki;
  /** CNs accepted from the front proxy; default its client's CN. */
  allowedNames?: string[];
  /** Serve the aggregated discovery document on /apis (default true). */
  aggregatedDiscovery?: boolean;
  /** Serve /openapi/v2 and /openapi/v3 (default true; 404 otherwise). */
  openapi?: boolean;
}

export interface ExtensionServer {
  port: number;
  pki: TestPki;
  /** base64 PEM of the serving CA, for the APIService's caBundle. */
  caBundle: string;
  requests: ExtensionRequest[];
  /** Requests whose path starts with `prefix`. */
  requestsTo(prefix: string): ExtensionRequest[];
  /** Adds a flunder; open watches of its namespace see it ADDED. */
  addFlunder(namespace: string, name: string): void;
  stop(): Promise<void>;
}

type Flunder = Record<string, any>;

const flunderResource = {
  name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list', 'watch'], shortNames: ['fl'],
};

function aggregatedDocument(): Record<string, unknown> {
  return {
    kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2beta1', metadata: {},
    items: [{
      metadata: { name: wardleGroup, creationTimestamp: null },
      versions: [{
        version: wardleVersion, freshness: 'Current',
        resources: [{
          resource: 'flunders', responseKind: { group: wardleGroup, version: wardleVersion, kind: 'Flunder' },
          scope: 'Namespaced', singularResource: 'flunder', verbs: ['get', 'list', 'watch'], shortNames: ['fl'],
        }],
      }],
    }],
  };
}

const groupDoc = {
  name: wardleGroup, versions: [{ groupVersion, version: wardleVersion }], preferredVersion: { groupVersion, version: wardleVersion },
};

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  res.writeHead(status, { 'Content-Type': contentType });
  res.end(`${JSON.stringify(body)}\n`);
}

function status(code: number, reason: string, message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
}

export async function startExtensionServer(opts: ExtensionServerOptions): Promise<ExtensionServer> {
  const dir = mkdtempSync(join(tmpdir(), 'extension-server-'));
  const pki = await createTestPki(dir, { dnsNames: [`${opts.service}.${opts.namespace}.svc`] });
  const authenticator = new RequestHeaderAuthenticator({
    usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'],
    roots: [new X509Certificate(opts.frontProxy.ca.cert)], allowedNames: opts.allowedNames ?? [opts.frontProxy.clientName],
  });
  const requests: ExtensionRequest[] = [];
  const flunders = new Map<string, Flunder>();
  const watchers = new Set<{ namespace: string; res: ServerResponse }>();
  let rv = 1;

  const flunderList = (namespace: string) => ({
    kind: 'FlunderList', apiVersion: groupVersion, metadata: { resourceVersion: String(rv) },
    items: [...flunders.values()].filter((f) => f.metadata.namespace === namespace),
  });

  const serveWatch = (res: ServerResponse, namespace: string) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    for (const f of flunderList(namespace).items) res.write(`${JSON.stringify({ type: 'ADDED', object: f })}\n`);
    const w = { namespace, res };
    watchers.add(w);
    res.on('close', () => watchers.delete(w));
  };

  const v2Body = JSON.stringify(openAPIV2());
  const v3Body = JSON.stringify(openAPIV3Document());
  /** A document with its ETag, 304 when If-None-Match names it. */
  const sendDocument = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const etag = `"${etagOf(body)}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json', ETag: etag });
    res.end(body);
  };
  const serveOpenAPI = (req: IncomingMessage, res: ServerResponse, path: string): boolean => {
    if (opts.openapi === false) return false;
    if (path === '/openapi/v2') sendDocument(req, res, v2Body);
    else if (path === '/openapi/v3') {
      const url = (key: string, body: string) => ({ serverRelativeURL: `/openapi/v3/${key}?hash=${etagOf(body)}` });
      send(res, 200, { paths: { [v3Key]: url(v3Key, v3Body), version: url('version', '{}') } });
    } else if (path === `/openapi/v3/${v3Key}`) sendDocument(req, res, v3Body);
    else return false;
    return true;
  };

  const route = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const path = url.pathname.replace(/\/$/, '') || '/';
    const accept = String(req.headers.accept ?? '');
    if (serveOpenAPI(req, res, path)) return;
    if (path === '/apis') {
      if ((opts.aggregatedDiscovery ?? true) && accept.includes('g=apidiscovery.k8s.io')) {
        return send(res, 200, aggregatedDocument(), 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
      }
      return send(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [groupDoc] });
    }
    if (path === `/apis/${wardleGroup}`) return send(res, 200, { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc });
    if (path === `/apis/${groupVersion}`) {
      return send(res, 200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: [flunderResource] });
    }
    const m = new RegExp(`^/apis/${groupVersion.replace(/\./g, '\\.')}/namespaces/([^/]+)/flunders(?:/([^/]+))?$`).exec(path);
    if (m && req.method === 'GET') {
      const [, namespace, name] = m as unknown as [string, string, string | undefined];
      if (name) {
        const f = flunders.get(`${namespace}/${name}`);
        return f ? send(res, 200, f) : send(res, 404, status(404, 'NotFound', `flunders.${wardleGroup} "${name}" not found`));
      }
      const w = url.searchParams.get('watch');
      if (w === 'true' || w === '1') return serveWatch(res, namespace);
      return send(res, 200, flunderList(namespace));
    }
    send(res, 404, status(404, 'NotFound', 'the server could not find the requested resource'));
  };

  /** Records the request and reads its identity; undefined (with the reason) when refused. */
  const admit = async (req: IncomingMessage): Promise<{ url: URL; refused?: string }> => {
    const url = new URL(req.url ?? '/', 'https://extension');
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerCertificate(true);
    const recorded: ExtensionRequest = {
      method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers,
      clientCN: socket.authorized ? String(peer?.subject?.CN ?? '') : '',
    };
    requests.push(recorded);
    const result = await authenticator.authenticate({
      headers: req.headers, rawHeaders: req.rawHeaders, peerCertificate: peer && Object.keys(peer).length > 0 ? peer : undefined,
    });
    if (result.decision !== 'authenticated') return { url, refused: result.decision === 'error' ? result.message : 'Unauthorized' };
    recorded.user = result.user;
    return { url };
  };

  const server: Server = createServer({
    cert: pki.serving.cert, key: pki.serving.key, ca: opts.frontProxy.ca.cert, requestCert: true, rejectUnauthorized: false,
  }, (req, res) => {
    void admit(req).then(({ url, refused }) => {
      if (refused) send(res, 401, status(401, 'Unauthorized', refused));
      else route(req, res, url);
    });
  });
  // Any upgrade from the aggregator is accepted and then every byte is echoed.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    void admit(req).then(({ refused }) => {
      if (refused) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
        return;
      }
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${req.headers.upgrade}\r\nX-Extension-Server: upgraded\r\n\r\n`);
      if (head.length > 0) socket.write(head);
      socket.pipe(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    pki,
    caBundle: Buffer.from(pki.ca.cert).toString('base64'),
    requests,
    requestsTo: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    addFlunder(namespace, name) {
      rv++;
      const f: Flunder = {
        apiVersion: groupVersion, kind: 'Flunder',
        metadata: { name, namespace, resourceVersion: String(rv), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
        spec: {},
      };
      flunders.set(`${namespace}/${name}`, f);
      for (const w of watchers) if (w.namespace === namespace) w.res.write(`${JSON.stringify({ type: 'ADDED', object: f })}\n`);
    },
    stop: async () => {
      for (const w of watchers) w.res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
