// One kubelet thread (see kubelet-threads.ts): its share of the simulated kubelets, their
// clients and a Recorder of their calls handed over when stopped; what the run matches
// across threads (writes, watch events, the pod ledger's marks) is noted with its time
// and handed over in batches.
import { parentPort, workerData } from 'node:worker_threads';
import { ApiClient } from './client.js';
import { SimKubelet, type PodSink } from './kubelet.js';
import { flushMs, type FromKubeletThread, type KubeletNotes, type KubeletThreadData } from './kubelet-threads.js';
import { Recorder, threadLoop } from './recorder.js';

let notes: KubeletNotes = [];

/** Calls are recorded here; writes and watch events are noted for the main thread's watch lag. */
class NotingRecorder extends Recorder {
  override wrote(id: string, rv: string, at: number): void { notes.push('w', id, rv, at); }
  override saw(id: string, rv: string, at: number): void { notes.push('s', id, rv, at); }
}

const noting: PodSink = {
  seen: (node, key) => { notes.push('n', node, key); },
  mark: (key, mark, at) => { notes.push('m', key, mark, at); },
  drop: (key) => { notes.push('d', key); },
  ran: (key, at) => { notes.push('r', key, at); },
};

async function run(d: KubeletThreadData): Promise<void> {
  const port = parentPort!;
  const rec = new NotingRecorder();
  const clients: ApiClient[] = [];
  const kubelets = d.nodes.map((n) => {
    const c = new ApiClient(d.server, n.id, rec, d.userAgent, d.protocol);
    clients.push(c);
    return new SimKubelet(n.name, n.index, c, rec, noting, d.opts);
  });
  let watches = -1;
  const flush = (): void => {
    const now = kubelets.reduce((x, k) => x + k.watchCount, 0);
    // Nothing to say: no message (the main thread keeps the last count).
    if (notes.length === 0 && now === watches) return;
    watches = now;
    port.postMessage({ notes, watches } satisfies FromKubeletThread);
    notes = [];
  };
  const timer = setInterval(flush, flushMs);
  await new Promise<void>((r) => { port.once('message', () => r()); port.postMessage({ ready: true } satisfies FromKubeletThread); });
  const loop = threadLoop(`kubelets ${d.nodes[0]?.name ?? ''}..`);
  port.once('message', () => {
    for (const k of kubelets) k.stop();
    for (const c of clients) c.close();
    clearInterval(timer);
    flush();
    port.postMessage({ done: { ...rec.snapshot(), loop: loop() } } satisfies FromKubeletThread);
  });
  try {
    for (let i = 0; i < kubelets.length; i += d.wave) await Promise.all(kubelets.slice(i, i + d.wave).map((k) => k.start()));
    port.postMessage({ registered: true } satisfies FromKubeletThread);
  } catch (err) {
    port.postMessage({ failed: (err as Error).message } satisfies FromKubeletThread);
  }
}

void run(workerData as KubeletThreadData);
