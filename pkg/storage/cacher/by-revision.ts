import type { IEvent } from 'etcd3';

/** Consecutive runs of events that share a mod revision (etcd sends a revision's events together). */
export function* byRevision(events: IEvent[]): Generator<IEvent[]> {
  let run: IEvent[] = [];
  for (const ev of events) {
    if (run.length > 0 && run[0].kv.mod_revision !== ev.kv.mod_revision) { yield run; run = []; }
    run.push(ev);
  }
  if (run.length > 0) yield run;
}
