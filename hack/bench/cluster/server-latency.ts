// The replicas' own view of the same calls: apiserver_request_duration_seconds of every
// replica, scraped after the run, merged, and p50/p99 estimated from the buckets as
// Prometheus's histogram_quantile does. The server's clock starts when its handler chain
// gets the request and stops when the response is sent; the client's (the SLO table)
// also holds the generator's event loop, HAProxy and the replica's own queueing before
// its chain runs (TLS, HTTP/2 framing, a busy or starved event loop). Upstream's SLOs are
// stated on this server-side histogram.
import { request } from 'node:https';
import type { Credentials } from './kubeconfig.js';

interface Histogram { count: number; buckets: Map<number, number> }

export interface ServerLatencyRow { verb: string; resource: string; scope: string; count: number; p50: number; p99: number }

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

/** Merged over `urls`, rows with at least `minCount` calls, WATCH and CONNECT left out (long-running). */
export async function serverLatency(urls: string[], creds: Credentials, minCount = 100): Promise<ServerLatencyRow[]> {
  const merged = new Map<string, Histogram>();
  for (const url of urls) {
    let text: string;
    try { text = await get(url, creds); } catch { continue; }
    for (const line of text.split('\n')) {
      const m = /^apiserver_request_duration_seconds_bucket\{(.*)\} (\S+)$/.exec(line);
      if (!m) continue;
      const l = labelsOf(m[1]!);
      if (l.verb === 'WATCH' || l.verb === 'CONNECT' || !l.resource) continue;
      const key = `${l.verb}|${l.resource}${l.subresource ? `/${l.subresource}` : ''}|${l.scope}`;
      let h = merged.get(key);
      if (!h) merged.set(key, (h = { count: 0, buckets: new Map() }));
      const le = l.le === '+Inf' ? Infinity : Number(l.le);
      h.buckets.set(le, (h.buckets.get(le) ?? 0) + Number(m[2]));
      if (le === Infinity) h.count += Number(m[2]);
    }
  }
  return [...merged].filter(([, h]) => h.count >= minCount).map(([k, h]) => {
    const [verb, resource, scope] = k.split('|') as [string, string, string];
    return { verb, resource, scope, count: h.count, p50: quantile(h, 0.5) * 1000, p99: quantile(h, 0.99) * 1000 };
  }).sort((a, b) => `${a.resource}${a.verb}`.localeCompare(`${b.resource}${b.verb}`));
}
