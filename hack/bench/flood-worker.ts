// The flooding client of the APF benchmark, on its own thread: the victim's latencies are
// timed on the main thread, so they must not include the time this client spends
// receiving megabytes of lists (one event loop would charge it to the victim).
import { Agent, request as httpsRequest } from 'node:https';
import { setPriority } from 'node:os';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { Etcd3 } from 'etcd3';

export type FloodTarget =
  | { kind: 'http'; base: string; path: string; token: string; ca: string }
  | { kind: 'etcd'; endpoint: string; prefix: string };

interface FloodData { target: FloodTarget; width: number }

/** Starts `width` loops of requests at `target` on a worker thread until stopped. */
export function startFlood(target: FloodTarget, width: number): { stop(): Promise<Record<string, number>> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { target, width } satisfies FloodData });
  const outcomes = new Promise<Record<string, number>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { async stop() { worker.postMessage('stop'); const o = await outcomes; await worker.terminate(); return o; } };
}

function httpCall(target: Extract<FloodTarget, { kind: 'http' }>, agent: Agent): Promise<number> {
  const u = new URL(target.path, target.base);
  return new Promise((resolve) => {
    // Asking for gzip and decompressing, as every client-go program does (Go's transport).
    const headers = { Accept: 'application/json', 'Accept-Encoding': 'gzip', Authorization: `Bearer ${target.token}` };
    const req = httpsRequest({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent, headers }, (res) => {
      const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
      // Drained, not kept: the flooder only wants the server to do the work.
      body.on('data', () => undefined);
      body.on('end', () => resolve(res.statusCode ?? 0));
      body.on('error', () => resolve(-1));
      res.on('error', () => resolve(-1));
    });
    req.on('error', () => resolve(-1));
    req.end();
  });
}

async function runWorker(data: FloodData): Promise<void> {
  // Linux keeps a nice value per thread: this one yields the CPU to the server under test
  // and to the victim's thread. On a real cluster the flooding client is another machine;
  // here its TLS decryption of megabytes of lists shares the 2 cores.
  try { setPriority(19); } catch { /* not permitted: run at normal priority */ }
  let running = true;
  parentPort!.on('message', () => { running = false; });
  const outcomes: Record<string, number> = {};
  const { target } = data;
  let call: () => Promise<number>;
  let close: () => void;
  if (target.kind === 'http') {
    const agent = new Agent({ keepAlive: true, ca: target.ca, maxSockets: data.width });
    call = () => httpCall(target, agent);
    close = () => agent.destroy();
  } else {
    const raw = new Etcd3({ hosts: target.endpoint, grpcOptions: { 'grpc.max_receive_message_length': 256 * 1024 * 1024 } });
    // Values too: the replica's lists carry whole objects.
    call = async () => { await raw.getAll().prefix(target.prefix).buffers(); return 200; };
    close = () => raw.close();
  }
  await Promise.all(Array.from({ length: data.width }, async () => {
    while (running) {
      const code = await call().catch(() => -1);
      outcomes[code] = (outcomes[code] ?? 0) + 1;
    }
  }));
  close();
  parentPort!.postMessage(outcomes);
}

if (parentPort && (workerData as FloodData | undefined)?.target) void runWorker(workerData as FloodData);
