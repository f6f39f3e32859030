// The replica's request flow control: API Priority and Fairness fed by its informers,
// or the plain max-in-flight limit when --enable-priority-and-fairness=false.
import type Koa from 'koa';
import type { Registry } from 'prom-client';
import type { InformerFactory } from '../client/factory.js';
import { maxInFlightFilter, priorityAndFairnessFilter } from '../endpoints/filters/priority-and-fairness.js';
import { APFController } from '../util/flowcontrol/controller.js';
import { flowcontrolMetrics } from '../util/flowcontrol/metrics.js';
import type { ObjectCounts } from '../util/flowcontrol/estimate.js';
import type { PathHandler } from './app.js';
import type { ServerOptions } from './options.js';

const group = 'flowcontrol.apiserver.k8s.io';
/** Upstream lets a request wait in its queue for a quarter of the 60 s request timeout. */
const maxQueueWaitMs = 15_000;

export function buildFlowControl(o: ServerOptions, informers: InformerFactory, registry: Registry, counts?: ObjectCounts): { filter: Koa.Middleware; debug?: PathHandler } {
  if (!o.enablePriorityAndFairness) return { filter: maxInFlightFilter(o.maxRequestsInflight, o.maxMutatingRequestsInflight) };
  const apf = new APFController(informers.informerFor(group, 'flowschemas'), informers.informerFor(group, 'prioritylevelconfigurations'),
    o.maxRequestsInflight + o.maxMutatingRequestsInflight, flowcontrolMetrics(registry), maxQueueWaitMs);
  return { filter: priorityAndFairnessFilter(apf, counts), debug: dumpPriorityLevels(apf) };
}

/** Upstream's debug tables: a header row, comma-terminated padded columns, one row per line. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => `${c},`.padEnd(widths[i]! + 2)).join(' ').trimEnd().replace(/,$/, '')).join('\n') + '\n';
}

/** GET /debug/api_priority_and_fairness/dump_{priority_levels,queues,requests}. */
function dumpPriorityLevels(apf: APFController): PathHandler {
  const dumps: Record<string, () => string[][]> = {
    dump_priority_levels: () => [['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'NominalCL'],
      ...apf.dumpPriorityLevels().map((l) => (l.exempt ? [l.name, '<none>', '<none>', '<none>', '<none>', '<none>', '<none>']
        : [l.name, String(l.queues.filter((n) => n > 0).length), String(l.executing === 0 && l.waiting === 0), 'false',
          String(l.waiting), String(l.executing), String(l.nominal)]))],
    dump_queues: () => [['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests'],
      ...apf.dumpQueues().map((q) => [q.level, String(q.index), String(q.pending), String(q.executing)])],
    dump_requests: () => [['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime'],
      ...apf.dumpRequests().map((r) => [r.level, r.flowSchema, String(r.queue), String(r.indexInQueue), r.distinguisher, new Date(r.arrivedAt).toISOString()])],
  };
  return async (ctx) => {
    const m = /^\/debug\/api_priority_and_fairness\/(dump_[a-z_]+)$/.exec(ctx.path);
    const dump = m ? dumps[m[1]!] : undefined;
    if (!dump || ctx.method !== 'GET') return false;
    ctx.status = 200;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = table(dump());
    return true;
  };
}
