// A child process holding many watchers for the fan-out benchmark (hack/bench/fanout.ts),
// so that parsing thousands of streams does not share an event loop with the writer.
// Each watcher records when each update (identified by its "seq") arrived; at the end
// the parent sends every write's acknowledgement time and gets latencies, misses and
// duplicates back. Times are epoch milliseconds (performance.timeOrigin + now), which
// processes on one machine share.
import { request as httpsRequest } from 'node:https';
import { Etcd3 } from 'etcd3';
import type { TlsCredentials } from '../../test/harness/index.js';
import { onLines } from './lines.js';

export type WatcherStart =
  /** `url`: one for all, or one per watcher (node-scoped watchers, hack/bench/kubelets.ts). */
  | { kind: 'api'; count: number; url: string | string[]; creds: TlsCredentials }
  | { kind: 'etcd'; count: number; endpoint: string; keyPrefix: string };
/**
 * `finish.owners`: when each write is meant for one watcher only, the index of that
 * watcher (in this worker's order) per write, or -1 for none of this worker's; unset:
 * every watcher expects every write.
 */
export type ToWorker = { op: 'start'; spec: WatcherStart } | { op: 'progress' } | { op: 'finish'; acks: number[]; sends: number[]; owners?: number[] };
export type FromWorker =
  | { op: 'ready' } | { op: 'error'; message: string } | { op: 'progress'; received: number }
  | { op: 'result'; latencies: number[]; fromSend: number[]; missed: number; duplicated: number; unexpected: number; watchers: number; broken: number };

const clock = (): number => performance.timeOrigin + performance.now();
const seqOf = /"seq":"(\d+)"/;

/** Per watcher: seq -> arrival time; a second arrival of a seq is a duplicate. */
const arrivals: Array<Map<number, number>> = [];
let duplicated = 0;
let received = 0;
let broken = 0;
const cleanups: Array<() => void> = [];

function record(w: number, seq: number, at: number): void {
  received++;
  if (arrivals[w]!.has(seq)) duplicated++;
  else arrivals[w]!.set(seq, at);
}

function apiWatcher(w: number, url: string, creds: TlsCredentials): Promise<void> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    // One connection per watch, as separate clients would have.
    const req = httpsRequest({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: false, ...creds }, (res) => {
      if (res.statusCode !== 200) { reject(new Error(`watch: HTTP ${res.statusCode}`)); return; }
      onLines(res, clock, (line, at) => {
        const m = line.startsWith('{"type":"MODIFIED"') ? seqOf.exec(line) : null;
        if (m) record(w, Number(m[1]), at);
      });
      res.on('close', () => { broken++; });
      resolve();
    });
    req.on('error', reject);
    req.end();
    cleanups.push(() => req.destroy());
  });
}

async function start(spec: WatcherStart): Promise<void> {
  for (let i = 0; i < spec.count; i++) arrivals.push(new Map());
  if (spec.kind === 'api') {
    // A few handshakes at a time: a thousand at once would time out on a busy machine.
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      for (let w = next++; w < spec.count; w = next++) await apiWatcher(w, typeof spec.url === 'string' ? spec.url : spec.url[w]!, spec.creds);
    }));
    return;
  }
  const client = new Etcd3({ hosts: spec.endpoint });
  cleanups.push(() => client.close());
  await Promise.all(arrivals.map(async (_m, w) => {
    const watcher = await client.watch().prefix(spec.keyPrefix).create();
    watcher.on('put', (kv) => {
      const at = clock();
      const m = seqOf.exec(kv.value.toString('utf8'));
      if (m) record(w, Number(m[1]), at);
    });
  }));
}

function finish(acks: number[], sends: number[], owners?: number[]): FromWorker {
  const latencies: number[] = [];
  const fromSend: number[] = [];
  let missed = 0;
  let unexpected = 0;
  for (const [w, m] of arrivals.entries()) {
    for (let seq = 0; seq < acks.length; seq++) {
      // A write for another watcher is not missed, and must not arrive at all.
      if (owners && owners[seq] !== w) { if (m.has(seq)) unexpected++; continue; }
      const at = m.get(seq);
      if (at === undefined) missed++;
      else { latencies.push(at - acks[seq]!); fromSend.push(at - sends[seq]!); }
    }
  }
  const watchers = arrivals.length;
  for (const c of cleanups) c();
  // Streams we close ourselves are not broken ones.
  return { op: 'result', latencies, fromSend, missed, duplicated, unexpected, watchers, broken: 0 };
}

const send = (m: FromWorker): void => { process.send!(m); };
// Say why before dying, so the parent's error names the cause.
process.on('uncaughtException', (err) => { send({ op: 'error', message: `watcher process: ${err.stack ?? err.message}` }); process.exit(1); });
process.on('message', (m: ToWorker) => {
  if (m.op === 'start') start(m.spec).then(() => send({ op: 'ready' }), (err: Error) => send({ op: 'error', message: err.message }));
  else if (m.op === 'progress') send({ op: 'progress', received });
  else if (m.op === 'finish') {
    const closedEarly = broken;
    const r = finish(m.acks, m.sends, m.owners);
    // Exit only once the (possibly large) result has been handed to the parent.
    process.send!({ ...r, broken: closedEarly } as FromWorker, () => process.exit(0));
  }
});
