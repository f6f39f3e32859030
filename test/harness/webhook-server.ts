// An admission webhook backend for tests: HTTPS on 127.0.0.1 with its own CA (pki.ts),
// one handler per path, every request recorded. A handler returns what to answer
// (allow, deny with a status, a JSON patch, warnings, audit annotations) and may delay
// or send a raw HTTP reply. Unknown paths allow. The reply's AdmissionReview version
// is the request's.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestPki, type TestPki } from './pki.js';

/** The AdmissionReview.request the server sent (loosely typed: tests inspect it). */
export type AdmissionRequestBody = Record<string, any>;

export interface RecordedReview {
  path: string;
  headers: IncomingHttpHeaders;
  /** The whole AdmissionReview as received. */
  review: Record<string, any>;
  request: AdmissionRequestBody;
  /** Query string parameters (the apiserver sends `timeout`). */
  query: Record<string, string>;
  /** CN of the client certificate presented, if any. */
  clientCN: string;
}

export interface WebhookReply {
  /** Default true. */
  allowed?: boolean;
  status?: { code?: number; message?: string; reason?: string };
  /** JSON patch operations; sent base64-encoded with patchType JSONPatch. */
  patch?: unknown[];
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer with this HTTP status and raw body (JSON unless contentType says otherwise) instead of a review. */
  raw?: { status: number; body: string; contentType?: string };
  /** Override the response uid. */
  uid?: string;
}

export type WebhookHandler = (request: AdmissionRequestBody, recorded: RecordedReview) => WebhookReply | Promise<WebhookReply>;

export interface WebhookServer {
  port: number;
  pki: TestPki;
  /** base64 PEM of the server's CA, for clientConfig.caBundle. */
  caBundle: string;
  url(path: string): string;
  handle(path: string, handler: WebhookHandler): void;
  requests: RecordedReview[];
  requestsTo(path: string): RecordedReview[];
  stop(): Promise<void>;
}

export interface WebhookServerOptions {
  /** Extra DNS names for the serving certificate (e.g. `<svc>.<ns>.svc`). */
  dnsNames?: string[];
  /** Ask for client certificates; those signed by the server's own CA are reported (clientCN). */
  clientUsers?: string[];
}

export async function startWebhookServer(opts: WebhookServerOptions = {}): Promise<WebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-server-'));
  const pki = await createTestPki(dir, { dnsNames: opts.dnsNames, clientUsers: (opts.clientUsers ?? []).map((name) => ({ name })) });
  const handlers = new Map<string, WebhookHandler>();
  const requests: RecordedReview[] = [];
  const tls = opts.clientUsers ? { ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false } : {};
  const server: Server = createServer({ cert: pki.serving.cert, key: pki.serving.key, ...tls }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'https://webhook');
        let review: Record<string, any> = {};
        try {
          review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
        } catch { /* recorded as empty */ }
        const recorded: RecordedReview = {
          path: url.pathname, headers: req.headers, review, request: review.request ?? {}, query: Object.fromEntries(url.searchParams),
          clientCN: (req.socket as TLSSocket).authorized ? String((req.socket as TLSSocket).getPeerCertificate()?.subject?.CN ?? '') : '',
        };
        requests.push(recorded);
        const handler = handlers.get(url.pathname);
        let reply: WebhookReply;
        try {
          reply = handler ? await handler(recorded.request, recorded) : {};
        } catch (err) {
          reply = { raw: { status: 500, body: String(err) } };
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        if (reply.raw) {
          res.writeHead(reply.raw.status, { 'Content-Type': reply.raw.contentType ?? 'application/json' });
          res.end(reply.raw.body);
          return;
        }
        const response: Record<string, unknown> = { uid: reply.uid ?? recorded.request.uid, allowed: reply.allowed ?? true };
        if (reply.status) response.status = reply.status;
        if (reply.patch) {
          response.patchType = 'JSONPatch';
          response.patch = Buffer.from(JSON.stringify(reply.patch)).toString('base64');
        }
        if (reply.warnings) response.warnings = reply.warnings;
        if (reply.auditAnnotations) response.auditAnnotations = reply.auditAnnotations;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: review.apiVersion ?? 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    pki,
    caBundle: Buffer.from(pki.ca.cert).toString('base64'),
    url: (path) => `https://127.0.0.1:${port}${path}`,
    handle: (path, handler) => { handlers.set(path, handler); },
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
