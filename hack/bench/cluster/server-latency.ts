// The replicas' own view of the same calls: apiserver_request_duration_seconds of every
// replica, scraped after the run, merged, and p50/p99 estimated from the buckets as
// Prometheus's histogram_quantile does. The server's clock starts when its handler chain
// gets the request and stops when the response is sent; the client's (the SLO table)
// also holds the generator's event loop, HAProxy and the replica's own queueing before
// its chain runs (TLS, HTTP/2 framing, a busy or starved event loop). Upstream's SLOs are
// stated on this server-side histogram. Inside it, two more of the replicas' histograms
// say where the time went: waiting in API Priority and Fairness's queues
// (apiserver_flowcontrol_request_wait_duration_seconds) and in etcd calls
// (etcd_request_duration_seconds); the rest is the replica's own work and its event loop.
import { request } from 'node:https';
import type { Credentials } from './kubeconfig.js';

interface Histogram { count: number; buckets: Map<number, number> }

export interface ServerLatencyRow { key: string; count: number; p50: number; p99: number }

/** The histograms read, and how each names a row from its labels (undefined: left out). */
export const serverHistograms: Record<string, (l: Record<string, string>) => string | undefined> = {
  // WATCH and CONNECT are long-running: their duration is their life, not a latency.
  apiserver_request_duration_seconds: (l) => (l.verb === 'WATCH' || l.verb === 'CONNECT' || !l.resource ? undefined
    : `${l.resource}${l.subresource ? `/${l.subresource}` : ''} ${l.verb} ${l.scope}`),
  apiserver_flowcontrol_request_wait_duration_seconds: (l) => `${l.priority_level} ${l.execute === 'true' ? 'executed' : 'rejected'}`,
  etcd_request_duration_seconds: (l) => `${l.type} ${l.operation}`,
};

function get(url: string, creds: Credentials): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL('/metrics', url);
    const req = request({ hostname: u.hostname, port: u.port, path: u.pathname, ca: creds.ca, cert: creds.cert, key: creds.key,
      headers: creds.token ? { Authorization: `Bearer ${creds.token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`metrics: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function labelsOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

/** Linear interpolation within the bucket holding the q-th observation (histogram_quantile). */
function quantile(h: Histogram, q: number): number {
  const les = [...h.buckets.keys()].sort((a, b) => a - b);
  const rank = q * h.count;
  let prevLe = 0;
  let prevCount = 0;
  for (const le of les) {
    const c = h.buckets.get(le)!;
    if (c >= rank) {
      if (le === Infinity) return prevLe;
      return prevLe + ((le - prevLe) * (rank - prevCount)) / Math.max(1, c - prevCount);
    }
    prevLe = le;
    prevCount = c;
  }
  return NaN;
}

/** Each histogram of serverHistograms merged over `urls`, rows of at least `minCount` observations. */
export async function serverLatency(urls: string[], creds: Credentials, minCount = 100): Promise<Record<string, ServerLatencyRow[]>> {
  const merged = new Map<string, Map<string, Histogram>>();
  const lags: ServerLatencyRow[] = [];
  const gcs: ServerLatencyRow[] = [];
  for (const [i, url] of urls.entries()) {
    let text: string;
    try { text = await get(url, creds); } catch { continue; }
    // prom-client's default metrics, when served: each replica's event-loop delay since the last scrape (here: since it started).
    const lag = (q: string): number => Number(new RegExp(`^nodejs_eventloop_lag_${q}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
    if (!Number.isNaN(lag('p99'))) lags.push({ key: `replica-${i} (max ${lag('max').toFixed(0)} ms)`, count: 1, p50: lag('p50'), p99: lag('p99') });
    gcs.push(...gcRows(text, `replica-${i}`));
    for (const line of text.split('\n')) {
      const m = /^(\w+)_bucket\{(.*)\} (\S+)$/.exec(line);
      const keyOf = m ? serverHistograms[m[1]!] : undefined;
      if (!m || !keyOf) continue;
      const l = labelsOf(m[2]!);
      const key = keyOf(l);
      if (key === undefined) continue;
      let byKey = merged.get(m[1]!);
      if (!byKey) merged.set(m[1]!, (byKey = new Map()));
      let h = byKey.get(key);
      if (!h) byKey.set(key, (h = { count: 0, buckets: new Map() }));
      const le = l.le === '+Inf' ? Infinity : Number(l.le);
      h.buckets.set(le, (h.buckets.get(le) ?? 0) + Number(m[3]));
      if (le === Infinity) h.count += Number(m[3]);
    }
  }
  const out: Record<string, ServerLatencyRow[]> = {};
  if (lags.length > 0) out['event-loop delay (nodejs_eventloop_lag_*, since start)'] = lags;
  if (gcs.length > 0) out['garbage collection pauses (nodejs_gc_duration_seconds, since start; buckets 1 ms .. 5 s)'] = gcs;
  for (const [metric, byKey] of merged) {
    out[metric] = [...byKey].filter(([, h]) => h.count >= minCount)
      .map(([key, h]) => ({ key, count: h.count, p50: quantile(h, 0.5) * 1000, p99: quantile(h, 0.99) * 1000 }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }
  return out;
}

/**
 * A replica's GC pauses by kind (prom-client's default metrics): how many, their total, and
 * how many took 100 ms or more and 1 s or more, the pauses a request arriving then waits out.
 */
function gcRows(text: string, replica: string): ServerLatencyRow[] {
  const byKind = new Map<string, Histogram & { sum: number }>();
  const kindOf = (labels: string) => /kind="([^"]+)"/.exec(labels)?.[1] ?? '';
  for (const line of text.split('\n')) {
    const m = /^nodejs_gc_duration_seconds_(bucket|sum)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const kind = kindOf(m[2]!);
    let h = byKind.get(kind);
    if (!h) byKind.set(kind, (h = { count: 0, sum: 0, buckets: new Map() }));
    if (m[1] === 'sum') { h.sum = Number(m[3]); continue; }
    const le = /le="([^"]+)"/.exec(m[2]!)?.[1] ?? '';
    const at = le === '+Inf' ? Infinity : Number(le);
    h.buckets.set(at, Number(m[3]));
    if (at === Infinity) h.count = Number(m[3]);
  }
  return [...byKind].filter(([, h]) => h.count > 0).map(([kind, h]) => {
    const atMost = (le: number) => h.buckets.get(le) ?? 0;
    return {
      key: `${replica} ${kind} (total ${h.sum.toFixed(1)} s; >= 100 ms: ${h.count - atMost(0.1)}, >= 1 s: ${h.count - atMost(1)})`,
      count: h.count, p50: quantile(h, 0.5) * 1000, p99: quantile(h, 0.99) * 1000,
    };
  });
}

