// Abusive clients, one scenario each, with the size as a parameter: `make test` runs them
// small (test/integration/abuse.test.ts), `make chaos` at the sizes the issue names
// (test/chaos/run.ts). Each returns what it measured; the callers assert the bounds.
import * as tls from 'node:tls';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { request, type TlsCredentials } from '../harness/index.js';
import { rssKiB } from './runner.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface Target {
  url: string;
  admin: TlsCredentials;
  /** The replica's PID, for its resident memory. */
  pid: number;
}

/** Largest RSS seen while `work` runs (sampled every 100 ms), in MiB. */
export async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMiB: number; startMiB: number }> {
  const start = rssKiB(pid) ?? 0;
  let peak = start;
  const t = setInterval(() => { peak = Math.max(peak, rssKiB(pid) ?? 0); }, 100);
  try {
    const result = await work();
    peak = Math.max(peak, rssKiB(pid) ?? 0);
    return { result, peakMiB: Math.round(peak / 1024), startMiB: Math.round(start / 1024) };
  } finally {
    clearInterval(t);
  }
}

/** CPU time (user + system) the process has used, in ms. */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return undefined;
  }
}

/** Latency of a small read by another client, the "others keep being served" probe. */
export async function probeLatencyMs(t: Target): Promise<number> {
  const t0 = performance.now();
  const res = await request(`${t.url}/api/v1/namespaces/default`, { ...t.admin, timeoutMs: 10_000 });
  if (res.status !== 200) throw new Error(`probe: HTTP ${res.status}`);
  return Math.round(performance.now() - t0);
}

export interface StreamedUpload {
  status: number;
  body: string;
  /** Bytes the client had written when the answer came. */
  sentBytes: number;
  ms: number;
}

/**
 * A body streamed without Content-Length, `chunk` bytes every `intervalMs`, up to `total`
 * bytes, or declared up front with `declareLength` (a client announcing 100 MB).
 */
export function streamBody(t: Target, o: { path: string; total: number; chunk: number; intervalMs: number; declareLength?: boolean; timeoutMs?: number }): Promise<StreamedUpload> {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (o.declareLength) headers['Content-Length'] = String(o.total);
    const req = https.request({ hostname: u.hostname, port: u.port, method: 'POST', path: o.path, headers, ca: t.admin.ca, cert: t.admin.cert, key: t.admin.key, agent: false });
    const timer = setTimeout(() => { req.destroy(new Error('no answer')); }, o.timeoutMs ?? 60_000);
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), sentBytes: sent, ms: Math.round(performance.now() - t0) });
        req.destroy();
      });
    });
    req.on('error', (err) => { if (!answered) { clearTimeout(timer); reject(err); } });
    const piece = Buffer.alloc(o.chunk, 0x20);
    piece.write('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"k":"');
    void (async () => {
      while (sent < o.total && !answered && !req.destroyed) {
        const n = Math.min(o.chunk, o.total - sent);
        const ok = req.write(n === o.chunk ? piece : piece.subarray(0, n));
        sent += n;
        if (!ok) {
          await new Promise<void>((r) => {
            const done = (): void => { req.off('drain', done); req.off('close', done); r(); };
            req.on('drain', done);
            req.on('close', done);
          });
        }
        if (o.intervalMs > 0) await sleep(o.intervalMs);
      }
      if (!answered && !req.destroyed) req.end();
    })().catch(() => undefined);
  });
}

export interface HeaderTrickle {
  /** When the server closed the connection, ms after the first byte. */
  closedAfterMs: Promise<number>;
  /** What the server sent before closing (Go sends nothing). */
  received: () => string;
  stop: () => void;
}

/** A request whose headers never end: one more header byte every `intervalMs`. */
export function trickleHeaders(t: Target, intervalMs = 1000): Promise<HeaderTrickle> {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const sock = tls.connect({ host: u.hostname, port: Number(u.port), ca: t.admin.ca, cert: t.admin.cert, key: t.admin.key, rejectUnauthorized: false });
    let got = '';
    sock.on('data', (d: Buffer) => { got += d.toString('latin1'); });
    sock.once('error', reject);
    sock.once('secureConnect', () => {
      const t0 = performance.now();
      sock.write('GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      const tick = setInterval(() => { if (!sock.destroyed) sock.write('a'); }, intervalMs);
      const closedAfterMs = new Promise<number>((r) => sock.once('close', () => { clearInterval(tick); r(Math.round(performance.now() - t0)); }));
      sock.on('error', () => undefined);
      resolve({ closedAfterMs, received: () => got, stop: () => { clearInterval(tick); sock.destroy(); } });
    });
  });
}

export interface OpenWatches {
  opened: number;
  refused: Record<string, number>;
  close: () => void;
}

/** `n` watches from one client, `parallel` handshakes at a time; every connection is kept. */
export async function openWatches(t: Target, path: string, n: number, parallel = 50): Promise<OpenWatches> {
  const agent = new https.Agent({ keepAlive: false, maxSockets: Infinity, ca: t.admin.ca, cert: t.admin.cert, key: t.admin.key });
  const reqs: Array<ReturnType<typeof https.request>> = [];
  const refused: Record<string, number> = {};
  let opened = 0;
  const u = new URL(t.url);
  const one = (): Promise<void> => new Promise((resolve) => {
    const req = https.request({ agent, hostname: u.hostname, port: u.port, path, method: 'GET' });
    reqs.push(req);
    req.on('response', (res) => {
      if (res.statusCode === 200) opened++;
      else refused[String(res.statusCode)] = (refused[String(res.statusCode)] ?? 0) + 1;
      res.on('data', () => undefined);
      res.on('error', () => undefined);
      resolve();
    });
    req.on('error', (e: NodeJS.ErrnoException) => { refused[e.code ?? 'error'] = (refused[e.code ?? 'error'] ?? 0) + 1; resolve(); });
    req.end();
  });
  for (let i = 0; i < n; i += parallel) await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, one));
  return { opened, refused, close: () => { for (const r of reqs) r.destroy(); agent.destroy(); } };
}

export interface StalledWatch {
  /** Bytes the client has received (it stops reading right after the headers). */
  received: () => number;
  /** Resolves when the server ends the connection. */
  closed: Promise<void>;
  isClosed: () => boolean;
  /** Starts reading again (a paused socket cannot even notice that the server closed it). */
  resume: () => void;
  close: () => void;
}

/** A watch whose client reads the headers and then never reads again. */
export function stalledWatch(t: Target, path: string): Promise<StalledWatch> {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = https.request({ hostname: u.hostname, port: u.port, path, method: 'GET', ca: t.admin.ca, cert: t.admin.cert, key: t.admin.key, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        const body: Buffer[] = [];
        res.on('data', (d: Buffer) => body.push(d));
        res.on('end', () => reject(new Error(`watch: HTTP ${res.statusCode} ${JSON.stringify(res.headers)} ${Buffer.concat(body).toString('utf8').slice(0, 500)}`)));
        return;
      }
      let got = 0;
      let closed = false;
      res.on('data', (d: Buffer) => { got += d.length; });
      res.pause();
      // Stop the socket itself from reading, so the kernel buffers fill and the server sees it.
      res.socket.pause();
      const closedP = new Promise<void>((r) => res.socket.once('close', () => { closed = true; r(); }));
      res.on('error', () => undefined);
      resolve({ received: () => got, closed: closedP, isClosed: () => closed, resume: () => { res.socket.resume(); res.resume(); }, close: () => { req.destroy(); } });
    });
    req.end();
  });
}

/** Creates `n` ConfigMaps of `bytes` data each in `ns`, `parallel` at a time. */
export async function createConfigMaps(t: Target, ns: string, n: number, bytes: number, parallel = 16, prefix = 'cm'): Promise<void> {
  const agent = new https.Agent({ keepAlive: true, maxSockets: parallel, ca: t.admin.ca, cert: t.admin.cert, key: t.admin.key });
  const u = new URL(t.url);
  const value = 'x'.repeat(bytes);
  const one = (i: number): Promise<void> => new Promise((resolve, reject) => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${i}` }, data: { v: value } });
    const req = https.request({ agent, hostname: u.hostname, port: u.port, method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 201 || res.statusCode === 409 ? resolve() : reject(new Error(`create ${prefix}-${i}: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
  try {
    let next = 0;
    await Promise.all(Array.from({ length: parallel }, async () => { while (next < n) await one(next++); }));
  } finally {
    agent.destroy();
  }
}
