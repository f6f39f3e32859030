// A preload (`node --import dist/hack/bench/heap-sampler.js`) that makes a process's
// allocation countable per phase: V8's sampling heap profiler runs from the start, keeping
// the objects minor and major collections have already freed (so short-lived garbage
// counts, which is most of what a request allocates), and each SIGUSR2 writes what was
// sampled since the last one to $HEAP_SAMPLE_DIR/<pid>-<n>.heapprofile and starts afresh.
// alloc.ts signals it around each measured phase. Sampling every 1 KB on average
// (HEAP_SAMPLE_INTERVAL), so a phase of a few hundred MB gives a total within a fraction
// of a per cent.
import { Session } from 'node:inspector';
import { renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const dir = process.env['HEAP_SAMPLE_DIR'] ?? tmpdir();
const samplingInterval = Number(process.env['HEAP_SAMPLE_INTERVAL'] ?? 1024);
const session = new Session();
session.connect();
const start = (): void => session.post('HeapProfiler.startSampling', {
  samplingInterval, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
});
let n = 0;
process.on('SIGUSR2', () => {
  session.post('HeapProfiler.stopSampling', (err, r) => {
    if (!err) {
      const file = `${dir}/${process.pid}-${n++}.heapprofile`;
      // Written whole under another name first: the driver waits for the final name.
      writeFileSync(`${file}.part`, JSON.stringify(r.profile));
      renameSync(`${file}.part`, file);
    }
    start();
  });
});
session.post('HeapProfiler.enable', () => start());
