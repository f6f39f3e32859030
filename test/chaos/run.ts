// `make chaos`: a cluster under test (3 etcd members, 3 replicas, a load balancer), a
// workload with faults injected one at a time, then the checks. Prints a table and a last
// line "chaos: N operations, N faults, N violations"; exits non-zero on any violation and
// keeps the history files of a failing run.
//
// Environment: CHAOS_DURATION_S (default 180), CHAOS_CLIENTS (30), CHAOS_KEYS (200),
// CHAOS_WATCHES (4), CHAOS_FAULTS (comma list of allFaults below; default all), CHAOS_LB
// (node or haproxy), CHAOS_OUT (directory for the history files).
// Then the request fuzzer and the abuse scenarios at full size (test/fuzz/campaign.ts;
// CHAOS_FUZZ=0 skips them, FUZZ_REQUESTS and ABUSE_* size them); their requests and
// violations are counted in the last line too. CHAOS_ONLY=fuzz (the fuzzer alone), abuse (the
// abuse scenarios alone) or campaign (both) skips the fault run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Etcd3 } from 'etcd3';
import { createEtcdClient } from '../../pkg/storage/etcd/client.js';
import { request } from '../harness/index.js';
import { startChaosCluster, type ChaosCluster, type LoadBalancerKind } from './cluster.js';
import { runChecks, type Findings } from './checks.js';
import { EtcdHistory, NAMESPACE, runWorkload, type WorkloadResult } from './workload.js';
import { runCampaign } from '../fuzz/campaign.js';

export const allFaults = [
  'kill-replica', 'stop-replica', 'kill-etcd-leader', 'compact', 'stop-etcd-follower', 'partition-etcd-member',
  'partition-replica', 'delay-replica-etcd', 'loss-replica-etcd', 'clock-skew-replica',
] as const;
export type FaultName = typeof allFaults[number];

/** Who takes which fault: kept apart so that each fault starts from a healthy process. */
const killedReplica = 1;
const stoppedReplica = 2;
/** In its own network namespace (partition, delay, loss). */
const netReplica = 0;
const skewedReplica = 1;
/** In its own network namespace (partition). */
const netMember = 2;
const needsReplicaNs: FaultName[] = ['partition-replica', 'delay-replica-etcd', 'loss-replica-etcd'];

export interface ChaosOptions {
  durationMs: number;
  clients?: number;
  keys?: number;
  watches?: number;
  faults: FaultName[];
  lb?: LoadBalancerKind;
  log?: (line: string) => void;
  /**
   * Where the workload sends its calls; default: the load balancer and the replicas.
   * Tests use it to put a faulty proxy in the way.
   */
  route?: (c: ChaosCluster) => Promise<{ lbUrl: string; replicaUrls: () => string[]; close(): Promise<void> }>;
}

export interface ChaosReport {
  findings: Findings;
  faultsInjected: string[];
  workload: WorkloadResult;
  history: EtcdHistory;
  historyCaughtUp: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function currentRevision(client: Etcd3): Promise<string> {
  const res = await client.get('/chaos-revision-probe').exec();
  return res.header.revision;
}

/**
 * How long after an etcd fault ends its election may still be settling: etcd's election
 * timeout is 1 s, and a member rejoining with a higher term (3.4 has no pre-vote by
 * default) can force one more election right after the fault heals.
 */
const electionSettleMs = 5000;

/**
 * When etcd answers a linearizable read again (a leader that a quorum follows), up to 60 s.
 * A no-quorum window ends electionSettleMs after that, not after the fault: on a starved
 * machine (load 30-40) elections ran past a fixed 5 s, and writes etcd timed out itself
 * ("etcdserver: request timed out", a 504 whose outcome is unknown) fell outside the window.
 */
/** When the replica's /readyz answers 200 (up to 60 s). */
async function readyAt(c: ChaosCluster, replica: number): Promise<number> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const res = await request(`${c.replicas.urls[replica]}/readyz`, { ...c.replicas.credentialsFor('admin'), timeoutMs: 5000 }).catch(() => undefined);
    if (res?.status === 200) break;
    await sleep(200);
  }
  return performance.now();
}

async function quorumBack(client: Etcd3): Promise<number> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const ok = await Promise.race([client.get('/chaos-quorum-probe').exec().then(() => true, () => false), sleep(2000).then(() => false)]);
    if (ok) break;
    await sleep(200);
  }
  return performance.now();
}

interface FaultState {
  compacted: string;
  /** Windows (performance.now) in which etcd may have had no leader: 503/504 are allowed there. */
  noQuorum: Array<[number, number]>;
  /** From a replica's kill or restart until its /readyz answers 200. */
  starting: Array<[number, number]>;
}

async function inject(c: ChaosCluster, etcd: Etcd3, fault: FaultName, log: (l: string) => void, state: FaultState): Promise<string> {
  switch (fault) {
    case 'kill-replica': {
      const from = performance.now();
      await c.killReplica(killedReplica);
      log(`fault: replica ${killedReplica} killed (SIGKILL)`);
      await sleep(3000);
      await c.replicas.startReplica(killedReplica);
      log(`fault: replica ${killedReplica} restarted`);
      state.starting.push([from, await readyAt(c, killedReplica)]);
      return `kill -9 replica ${killedReplica}, restart`;
    }
    case 'stop-replica': {
      const pid = c.replicas.replicas[stoppedReplica]!.pid!;
      process.kill(pid, 'SIGSTOP');
      log(`fault: replica ${stoppedReplica} stopped (SIGSTOP)`);
      await sleep(5000);
      process.kill(pid, 'SIGCONT');
      log(`fault: replica ${stoppedReplica} continued (SIGCONT)`);
      return `SIGSTOP/SIGCONT replica ${stoppedReplica} (5 s)`;
    }
    case 'kill-etcd-leader': {
      const leader = await c.etcd.leader();
      const from = performance.now();
      await c.etcd.kill(leader);
      log(`fault: etcd member ${leader} (the leader) killed`);
      await sleep(3000);
      await c.etcd.start(leader);
      log(`fault: etcd member ${leader} restarted`);
      state.noQuorum.push([from, (await quorumBack(etcd)) + electionSettleMs]);
      return `kill -9 etcd leader m${leader}, restart`;
    }
    case 'compact': {
      const rev = await currentRevision(etcd);
      await etcd.kv.compact({ revision: rev, physical: true });
      state.compacted = rev;
      log(`fault: etcd compacted at revision ${rev}`);
      return `compaction at revision ${rev}`;
    }
    case 'stop-etcd-follower': {
      const leader = await c.etcd.leader();
      const follower = (leader + 1) % c.etcd.members.length;
      const pid = c.etcd.members[follower]!.child!.pid!;
      const from = performance.now();
      process.kill(pid, 'SIGSTOP');
      log(`fault: etcd member ${follower} (a follower) stopped (SIGSTOP)`);
      await sleep(5000);
      process.kill(pid, 'SIGCONT');
      log(`fault: etcd member ${follower} continued (SIGCONT)`);
      // Its election timer fires the moment it runs again: it may campaign and unseat the leader.
      state.noQuorum.push([from, (await quorumBack(etcd)) + electionSettleMs]);
      return `SIGSTOP/SIGCONT etcd follower m${follower} (5 s)`;
    }
    case 'partition-etcd-member': {
      const ns = c.memberNs!;
      const wasLeader = (await c.etcd.leader()) === netMember;
      const from = performance.now();
      ns.set({ outbound: { partitioned: true }, inbound: { partitioned: true } });
      log(`fault: etcd member ${netMember}${wasLeader ? ' (the leader)' : ''} partitioned from peers and clients`);
      await sleep(8000);
      ns.set({ outbound: {}, inbound: {} });
      log(`fault: etcd member ${netMember} partition healed`);
      // A partitioned leader loses its quorum; a partitioned follower can force an
      // election when it comes back.
      state.noQuorum.push([from, (await quorumBack(etcd)) + electionSettleMs]);
      return `partition etcd m${netMember}${wasLeader ? ' (leader)' : ''} (8 s)`;
    }
    case 'partition-replica': {
      const ns = c.replicaNs!;
      ns.set({ outbound: { partitioned: true }, inbound: { partitioned: true } });
      log(`fault: replica ${netReplica} partitioned from etcd and clients`);
      await sleep(8000);
      ns.set({ outbound: {}, inbound: {} });
      log(`fault: replica ${netReplica} partition healed`);
      return `partition replica ${netReplica} (8 s)`;
    }
    case 'delay-replica-etcd': {
      c.replicaNs!.set({ outbound: { delayMs: [100, 500] } });
      log(`fault: replica ${netReplica} -> etcd delayed 100-500 ms`);
      await sleep(10_000);
      c.replicaNs!.set({ outbound: {} });
      log(`fault: replica ${netReplica} -> etcd delay removed`);
      return `delay 100-500 ms replica ${netReplica} -> etcd (10 s)`;
    }
    case 'loss-replica-etcd': {
      c.replicaNs!.set({ outbound: { loss: 0.05 } });
      log(`fault: replica ${netReplica} <-> etcd 5% loss`);
      await sleep(10_000);
      c.replicaNs!.set({ outbound: {} });
      log(`fault: replica ${netReplica} <-> etcd loss removed`);
      return `5% loss replica ${netReplica} <-> etcd (10 s)`;
    }
    case 'clock-skew-replica': {
      const from = performance.now();
      await c.skewClock(skewedReplica, '+30s');
      state.starting.push([from, await readyAt(c, skewedReplica)]);
      // The replica's own Date header shows the skew took: a preload that silently did not
      // apply would make this fault a plain restart.
      const res = await request(`${c.replicas.urls[skewedReplica]}/version`, { ...c.replicas.credentialsFor('admin'), timeoutMs: 5000 });
      const ahead = Math.round((Date.parse(String(res.headers.date)) - Date.now()) / 1000);
      if (!(ahead >= 28 && ahead <= 32)) throw new Error(`replica ${skewedReplica} under libfaketime: its clock is ${ahead} s ahead, want 30 (Date: ${res.headers.date})`);
      log(`fault: replica ${skewedReplica} restarted with its clock 30 s ahead (libfaketime; its Date header: ${ahead} s ahead)`);
      return `clock +30 s on replica ${skewedReplica} (restarted under libfaketime, to the end)`;
    }
  }
}

export async function runChaos(o: ChaosOptions): Promise<ChaosReport> {
  const log = o.log ?? ((l: string) => console.log(l));
  const c = await startChaosCluster({
    lb: o.lb,
    namespacedReplica: o.faults.some((f) => needsReplicaNs.includes(f)) ? netReplica : undefined,
    namespacedMember: o.faults.includes('partition-etcd-member') ? netMember : undefined,
  });
  const etcd = createEtcdClient({ endpoints: c.etcd.endpoints, tls: c.etcdTLS }, { warn: () => undefined, info: () => undefined }).client;
  const history = new EtcdHistory(etcd, c.replicas.etcdPrefix);
  const route = o.route ? await o.route(c) : undefined;
  try {
    const creds = c.replicas.credentialsFor('admin');
    const ns = await request(`${c.lb.url}/api/v1/namespaces`, { ...creds, method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } } });
    if (ns.status !== 201) throw new Error(`creating namespace: HTTP ${ns.status} ${ns.text}`);
    const startRev = await currentRevision(etcd);
    await history.start(String(BigInt(startRev) + 1n));
    const state: FaultState = { compacted: '0', noQuorum: [], starting: [] };
    const faultsInjected: string[] = [];
    const faultRun = (async () => {
      const t0 = performance.now();
      for (const [i, f] of o.faults.entries()) {
        const at = t0 + (o.durationMs * (i + 1)) / (o.faults.length + 1);
        await sleep(Math.max(0, at - performance.now()));
        // The calls' times are performance.now() too: a 5xx can be placed against the faults.
        faultsInjected.push(await inject(c, etcd, f, (l) => log(`${l} (t=${Math.round(performance.now())} ms)`), state));
      }
    })();
    const workload = await runWorkload({
      lbUrl: route?.lbUrl ?? c.lb.url,
      replicaUrls: route?.replicaUrls ?? (() => c.replicas.urls),
      creds,
      clients: o.clients,
      keys: o.keys,
      watches: o.watches,
      durationMs: o.durationMs,
    });
    await faultRun;
    const historyCaughtUp = await history.caughtUp();
    const findings = runChecks({ calls: workload.calls, watches: workload.watches, history: history.events, compactedRevision: state.compacted, noQuorum: state.noQuorum, starting: state.starting });
    if (!historyCaughtUp) findings.violations++;
    return { findings, faultsInjected, workload, history, historyCaughtUp };
  } finally {
    await history.stop().catch(() => undefined);
    etcd.close();
    await route?.close();
    await c.stop();
  }
}

export function table(r: ChaosReport): string {
  const f = r.findings;
  const rows: Array<[string, number | string]> = [
    ['operations', f.operations],
    ['acknowledged', f.acknowledged],
    ['indeterminate', f.indeterminate],
    ['faults injected', r.faultsInjected.length],
    ['keys checked', f.linearizability.keys],
    ['keys undecided (search budget)', f.linearizability.unknown.length],
    ['linearizability violations', f.linearizability.violations.length + f.linearizability.bindingErrors.length],
    ['lost writes', f.lostWrites.length],
    ['revision order violations', f.revisionOrder.length],
    ['watch events delivered', r.workload.watches.reduce((n, w) => n + w.segments.reduce((m, s) => m + s.events.length, 0), 0)],
    ['watch reconnects / 410s', `${r.workload.watches.reduce((n, w) => n + w.reconnects, 0)} / ${r.workload.watches.reduce((n, w) => n + w.expired, 0)}`],
    ['watch gaps', f.watchGaps.length],
    ['watch duplicates', f.watchDuplicates.length],
    ['watch other (order, type, 410)', f.watchOther.length],
    ['unexpected 5xx', f.unexpected5xx.length],
    ['etcd history caught up', r.historyCaughtUp ? 'yes' : 'NO'],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}

export function details(r: ChaosReport, max = 10): string {
  const f = r.findings;
  const out: string[] = [];
  const list = (title: string, items: string[]): void => {
    if (items.length === 0) return;
    out.push(`${title} (${items.length}):`, ...items.slice(0, max).map((s) => `  ${s}`));
  };
  list('linearizability', f.linearizability.violations.map((v) => `${v.key}: ${v.explanation}`));
  list('bindings', f.linearizability.bindingErrors);
  list('lost writes', f.lostWrites);
  list('revision order', f.revisionOrder);
  list('watch gaps', f.watchGaps);
  list('watch duplicates', f.watchDuplicates);
  list('watch other', f.watchOther);
  list('unexpected 5xx', f.unexpected5xx);
  return out.join('\n');
}

export function writeHistory(r: ChaosReport, dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'calls.json'), JSON.stringify(r.workload.calls.map((c) => ({ ...c, cmp: c.cmp === Infinity ? 'inf' : c.cmp }))));
  writeFileSync(join(dir, 'watches.json'), JSON.stringify(r.workload.watches));
  writeFileSync(join(dir, 'etcd-history.json'), JSON.stringify(r.history.events.map((e) => ({ ...e, value: e.value.toString('base64') }))));
  writeFileSync(join(dir, 'findings.json'), JSON.stringify({ ...r.findings, faults: r.faultsInjected }, null, 1));
}

/** CHAOS_ONLY: run one part of the campaign without the fault run. */
async function campaignOnly(only: string): Promise<void> {
  const parts = { fuzz: only === 'fuzz' || only === 'campaign', abuse: only === 'abuse' || only === 'campaign' };
  if (!parts.fuzz && !parts.abuse) throw new Error(`CHAOS_ONLY=${only}: want fuzz, abuse or campaign`);
  const c = await runCampaign(undefined, parts);
  for (const l of c.lines) console.log(l);
  console.log(`chaos: ${c.operations} operations, 0 faults, ${c.violations} violations`);
  process.exit(c.violations > 0 ? 1 : 0);
}

async function main(): Promise<void> {
  if (process.env['CHAOS_ONLY']) return campaignOnly(process.env['CHAOS_ONLY']);
  const durationMs = Number(process.env['CHAOS_DURATION_S'] ?? 180) * 1000;
  const faults = (process.env['CHAOS_FAULTS'] ?? allFaults.join(',')).split(',').filter(Boolean) as FaultName[];
  console.log(`chaos: faults ${faults.join(', ')}; load balancer ${process.env['CHAOS_LB'] ?? 'node'}`);
  for (const f of faults) if (!allFaults.includes(f)) throw new Error(`unknown fault ${f}; known: ${allFaults.join(', ')}`);
  const lb = (process.env['CHAOS_LB'] ?? 'node') as LoadBalancerKind;
  if (lb !== 'node' && lb !== 'haproxy') throw new Error(`CHAOS_LB=${lb}: want node or haproxy`);
  const num = (k: string): number | undefined => (process.env[k] ? Number(process.env[k]) : undefined);
  const r = await runChaos({ durationMs, faults, lb, clients: num('CHAOS_CLIENTS'), keys: num('CHAOS_KEYS'), watches: num('CHAOS_WATCHES') });
  console.log(table(r));
  const d = details(r);
  if (d) console.log(d);
  if (!r.historyCaughtUp) console.log(`etcd history recorder not caught up: ${r.history.mismatch}`);
  if (r.findings.violations > 0 || process.env['CHAOS_OUT']) {
    const dir = process.env['CHAOS_OUT'] ?? join('_output', 'chaos', new Date().toISOString().replace(/[:.]/g, '-'));
    writeHistory(r, dir);
    console.log(`history files: ${dir}`);
  }
  let operations = r.findings.operations;
  let violations = r.findings.violations;
  if (process.env['CHAOS_FUZZ'] !== '0') {
    const c = await runCampaign();
    for (const l of c.lines) console.log(l);
    operations += c.operations;
    violations += c.violations;
  }
  console.log(`chaos: ${operations} operations, ${r.faultsInjected.length} faults, ${violations} violations`);
  process.exit(violations > 0 ? 1 : 0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(2);
  });
}
