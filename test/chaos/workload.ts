// The chaos workload: concurrent clients doing create/get/update(rv)/update/merge patch/
// delete(precondition)/list on ConfigMaps in one namespace, through the load balancer and
// directly to replicas, recording every call; watches that resume from the last seen
// resourceVersion after a disconnect; and a recorder of etcd's own history of the keys.
import { Agent, request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import { Etcd3, type Watcher } from 'etcd3';
import { request, watch, type TlsCredentials } from '../harness/index.js';
import type { Op, OpKind, Version } from './linearizability.js';

export const NAMESPACE = 'chaos';

export interface CallRecord extends Op {
  url: string;
  /** HTTP status (0: no answer) or error text. */
  httpStatus: number;
  error?: string;
}

export interface WatchSegment {
  /** resourceVersion the segment starts after. */
  from: string;
  /** True when the segment starts after a 410 and re-list. */
  afterExpired: boolean;
  /** After a 410: the resourceVersion the watch could not resume from. */
  expiredAt?: string;
  events: Array<{ type: string; name: string; rv: string }>;
}

export interface WatchRecord {
  id: number;
  segments: WatchSegment[];
  expired: number;
  reconnects: number;
}

export interface EtcdEvent {
  key: string;
  name: string;
  rev: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  value: Buffer;
}

export interface WorkloadOptions {
  /** Load balancer URL; replicas' URLs for direct calls. */
  lbUrl: string;
  replicaUrls: () => string[];
  creds: TlsCredentials;
  clients?: number;
  keys?: number;
  watches?: number;
  durationMs: number;
  requestTimeoutMs?: number;
}

export interface WorkloadResult {
  calls: CallRecord[];
  watches: WatchRecord[];
  keys: string[];
  startedAt: number;
  /** List calls (each recorded as one read per key). */
  lists: number;
}

interface Answer { status: number; body: unknown; text: string }

/** One HTTPS call over a keep-alive agent (the connection, and so the replica, lasts until it breaks). */
function send(agent: Agent, url: string, method: string, body: unknown, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const h: Record<string, string> = { Accept: 'application/json', ...headers };
  if (payload) { h['Content-Type'] ??= 'application/json'; h['Content-Length'] = String(payload.length); }
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ agent, method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', reject);
      res.once('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try { parsed = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, body: parsed, text });
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${url}: timed out`)));
    req.once('error', reject);
    req.end(payload);
  });
}

const rand = (n: number): number => Math.floor(Math.random() * n);

function versionOf(obj: unknown): Version | undefined {
  const o = obj as { metadata?: { resourceVersion?: string }; data?: { w?: string } } | undefined;
  const rv = o?.metadata?.resourceVersion;
  const token = o?.data?.w;
  return rv && token ? { rv, token } : undefined;
}

export async function runWorkload(o: WorkloadOptions): Promise<WorkloadResult> {
  const keys = Array.from({ length: o.keys ?? 200 }, (_, i) => `cm-${i}`);
  const calls: CallRecord[] = [];
  const base = `/api/v1/namespaces/${NAMESPACE}/configmaps`;
  const deadline = performance.now() + o.durationMs;
  let id = 0;
  const startedAt = performance.now();
  const timeoutMs = o.requestTimeoutMs ?? 10_000;
  const nClients = o.clients ?? 30;
  let lists = 0;

  const pickUrl = (): string => {
    if (Math.random() < 0.7) return o.lbUrl;
    const urls = o.replicaUrls();
    return urls[rand(urls.length)]!;
  };

  const agents = new Map<string, Agent>();
  const agentFor = (client: string, url: string): Agent => {
    const k = `${client} ${url}`;
    let a = agents.get(k);
    if (!a) {
      a = new Agent({ keepAlive: true, maxSockets: 1, ca: o.creds.ca, cert: o.creds.cert, key: o.creds.key });
      agents.set(k, a);
    }
    return a;
  };
  const call = async (
    client: string, kind: OpKind, key: string, method: string, path: string, body: unknown, token: string | undefined,
    precondition: string | undefined, headers?: Record<string, string>,
  ): Promise<{ rec: CallRecord; body: unknown }> => {
    const url = pickUrl();
    const rec: CallRecord = { id: id++, key, kind, client, inv: performance.now(), cmp: Infinity, outcome: 'unknown', url, httpStatus: 0, token, precondition };
    calls.push(rec);
    try {
      const res = await send(agentFor(client, url), `${url}${path}`, method, body, headers ?? {}, timeoutMs);
      rec.httpStatus = res.status;
      if (res.status >= 200 && res.status < 300) {
        rec.cmp = performance.now();
        rec.outcome = 'ok';
      } else if (res.status >= 400 && res.status < 500 && res.status !== 429 && res.status !== 408) {
        rec.cmp = performance.now();
        rec.outcome = 'fail';
        rec.status = res.status;
      } else {
        rec.error = res.text.slice(0, 300); // 5xx, 429: indeterminate
      }
      return { rec, body: res.body };
    } catch (err) {
      rec.error = (err as Error).message; // reset, timeout: indeterminate
      if (/ECONNREFUSED/.test(rec.error)) { rec.outcome = 'fail'; rec.cmp = performance.now(); } // never sent
      return { rec, body: undefined };
    }
  };

  const client = async (c: number): Promise<void> => {
    const name = `c${c}`;
    const lastRv = new Map<string, string>();
    let seq = 0;
    // Each client first creates its share of the keys, so that most calls find an object.
    for (let k = c; k < keys.length && performance.now() < deadline; k += nClients) {
      const key = keys[k]!;
      const token = `${name}-${seq++}`;
      const { rec, body } = await call(name, 'create', key, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key }, data: { w: token } }, token, undefined);
      if (rec.outcome === 'ok') { rec.written = versionOf(body); if (rec.written) lastRv.set(key, rec.written.rv); }
    }
    while (performance.now() < deadline) {
      const key = keys[rand(keys.length)]!;
      const token = `${name}-${seq++}`;
      const r = Math.random();
      const p = `${base}/${key}`;
      if (r < 0.15) {
        const { rec, body } = await call(name, 'create', key, 'POST', base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key }, data: { w: token } }, token, undefined);
        if (rec.outcome === 'ok') { rec.written = versionOf(body); if (rec.written) lastRv.set(key, rec.written.rv); }
      } else if (r < 0.40) {
        const { rec, body } = await call(name, 'get', key, 'GET', p, undefined, undefined, undefined);
        if (rec.outcome === 'ok') { rec.observed = versionOf(body) ?? null; if (rec.observed) lastRv.set(key, rec.observed.rv); }
      } else if (r < 0.60) {
        const pre = lastRv.get(key) ?? '1';
        const { rec, body } = await call(name, 'update', key, 'PUT', p, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key, resourceVersion: pre }, data: { w: token } }, token, pre);
        if (rec.outcome === 'ok') { rec.written = versionOf(body); if (rec.written) lastRv.set(key, rec.written.rv); }
      } else if (r < 0.70) {
        const { rec, body } = await call(name, 'updateUncond', key, 'PUT', p, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key }, data: { w: token } }, token, undefined);
        if (rec.outcome === 'ok') { rec.written = versionOf(body); if (rec.written) lastRv.set(key, rec.written.rv); }
      } else if (r < 0.82) {
        const { rec, body } = await call(name, 'patch', key, 'PATCH', p, { data: { w: token } }, token, undefined, { 'Content-Type': 'application/merge-patch+json' });
        if (rec.outcome === 'ok') { rec.written = versionOf(body); if (rec.written) lastRv.set(key, rec.written.rv); }
      } else if (r < 0.95) {
        const pre = lastRv.get(key) ?? '1';
        const { rec, body } = await call(name, 'delete', key, 'DELETE', p, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: pre } }, undefined, pre);
        if (rec.outcome === 'ok') rec.observed = versionOf(body) ?? null;
      } else {
        const url = pickUrl();
        const inv = performance.now();
        lists++;
        try {
          const res = await send(agentFor(name, url), `${url}${base}`, 'GET', undefined, {}, timeoutMs);
          const cmp = performance.now();
          if (res.status === 200) {
            const seen = new Map<string, Version | undefined>();
            for (const it of (res.body as { items?: unknown[] }).items ?? []) seen.set((it as { metadata: { name: string } }).metadata.name, versionOf(it));
            for (const k of keys) {
              calls.push({ id: id++, key: k, kind: 'read', client: name, inv, cmp, outcome: 'ok', url, httpStatus: 200, observed: seen.get(k) ?? null });
            }
          } else {
            calls.push({ id: id++, key: '(list)', kind: 'read', client: name, inv, cmp: Infinity, outcome: 'unknown', url, httpStatus: res.status, error: res.text.slice(0, 300) });
          }
        } catch (err) {
          calls.push({ id: id++, key: '(list)', kind: 'read', client: name, inv, cmp: Infinity, outcome: 'unknown', url, httpStatus: 0, error: (err as Error).message });
        }
      }
    }
  };

  const stopWatches = { stop: false };
  const watchRecords: WatchRecord[] = [];
  const listRv = async (): Promise<string> => {
    for (;;) {
      try {
        const res = await request<{ metadata: { resourceVersion: string } }>(`${pickUrl()}${base}`, { ...o.creds, timeoutMs });
        if (res.status === 200) return res.body.metadata.resourceVersion;
      } catch { /* retry */ }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const watcher = async (w: WatchRecord, startRv: string): Promise<void> => {
    let seg: WatchSegment = { from: startRv, afterExpired: false, events: [] };
    w.segments.push(seg);
    let last = startRv;
    while (!stopWatches.stop) {
      const url = pickUrl();
      const timeoutSeconds = 5 + rand(20);
      try {
        const s = await watch<{ type?: string; object?: unknown }>(
          `${url}${base}?watch=1&allowWatchBookmarks=true&resourceVersion=${last}&timeoutSeconds=${timeoutSeconds}`,
          { ...o.creds, timeoutMs: 0 },
        );
        const closer = setInterval(() => { if (stopWatches.stop) s.close(); }, 200);
        try {
          for (;;) {
            const ev = await s.next(60_000);
            const obj = ev.object as { kind?: string; code?: number; metadata?: { name?: string; resourceVersion?: string } };
            if (ev.type === 'ERROR') {
              if (obj.code === 410) throw Object.assign(new Error('expired'), { expired: true });
              throw new Error(`watch error event ${JSON.stringify(obj)}`);
            }
            const rv = obj.metadata?.resourceVersion;
            if (!rv) continue;
            last = rv;
            if (ev.type === 'BOOKMARK') continue;
            seg.events.push({ type: ev.type, name: obj.metadata?.name ?? '', rv });
          }
        } finally {
          clearInterval(closer);
          s.close();
        }
      } catch (err) {
        const e = err as { expired?: boolean; status?: number };
        if (e.expired || e.status === 410) {
          w.expired++;
          const expiredAt = last;
          last = await listRv();
          seg = { from: last, afterExpired: true, expiredAt, events: [] };
          w.segments.push(seg);
        } else {
          w.reconnects++;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
  };

  const initialRv = await listRv();
  const watchers: Promise<void>[] = [];
  for (let i = 0; i < (o.watches ?? 4); i++) {
    const w: WatchRecord = { id: i, segments: [], expired: 0, reconnects: 0 };
    watchRecords.push(w);
    watchers.push(watcher(w, initialRv));
  }
  await Promise.all(Array.from({ length: nClients }, (_, c) => client(c)));
  // Let the watches catch up with the last writes before stopping them.
  await new Promise((r) => setTimeout(r, 3000));
  stopWatches.stop = true;
  await Promise.all(watchers);
  for (const a of agents.values()) a.destroy();
  return { calls, watches: watchRecords, keys, startedAt, lists };
}

/** Records etcd's history of the namespace's ConfigMaps from a revision on, live. */
export class EtcdHistory {
  events: EtcdEvent[] = [];
  private watcher?: Watcher;
  readonly prefix: string;
  constructor(private client: Etcd3, etcdPrefix: string) {
    this.prefix = `${etcdPrefix}/configmaps/${NAMESPACE}/`;
  }

  private from = 0n;

  async start(fromRevision: string): Promise<void> {
    this.from = BigInt(fromRevision);
    const record = (type: 'put' | 'delete') => (kv: { key: Buffer; value: Buffer; mod_revision: string; create_revision: string; version: string }): void => {
      const key = kv.key.toString();
      this.events.push({
        key, name: key.slice(this.prefix.length), rev: kv.mod_revision, value: kv.value,
        type: type === 'delete' ? 'DELETED' : kv.version === '1' ? 'ADDED' : 'MODIFIED',
      });
    };
    this.watcher = await this.client.watch().prefix(this.prefix).startRevision(fromRevision).create();
    this.watcher.on('put', record('put'));
    this.watcher.on('delete', record('delete'));
  }

  /** Waits until the recorded history ends where etcd's current state does, key by key. */
  /** Why caughtUp() last said no. */
  mismatch = '';

  async caughtUp(timeoutMs = 20_000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        const kvs = await this.client.getAll().prefix(this.prefix).exec();
        const now = new Map(kvs.kvs.map((kv) => [kv.key.toString(), kv.mod_revision]));
        const last = new Map<string, EtcdEvent>();
        for (const e of this.events) last.set(e.key, e);
        let ok = true;
        for (const [k, rev] of now) if (BigInt(rev) >= this.from && last.get(k)?.rev !== rev) { ok = false; this.mismatch = `${k}: etcd at ${rev}, recorded ${last.get(k)?.rev}`; }
        for (const [k, e] of last) if (e.type !== 'DELETED' && !now.has(k)) { ok = false; this.mismatch = `${k}: absent in etcd, recorded ${e.type} at ${e.rev}`; }
        if (ok) return true;
      } catch (err) { this.mismatch = (err as Error).message; }
      await new Promise((r) => setTimeout(r, 250));
    }
    return false;
  }

  async stop(): Promise<void> {
    await this.watcher?.cancel();
  }
}
