// API Priority and Fairness isolation, as a cluster sees it: one client floods LIST
// requests of 2,000 ConfigMaps with many connections while another user GETs one
// ConfigMap at a steady pace. The flooder is a low-priority user, as the operator of a
// cluster makes one: a FlowSchema puts it in a priority level of its own with a small
// share of the seats; with --same-level both stay ordinary users of global-default, so
// only fair queuing within one level keeps the second one served. The flood runs on its
// own thread (flood-worker.ts) so that receiving it does not delay the victim's timing.
// Reported beside raw etcd doing the equivalent (a range flood beside single-key gets) in
// the same run; the figure that matters is the victim's p99 under flood over its p99
// unloaded (upstream's goal: within 2x).
// Run: `node dist/hack/bench/apf.js [--seconds=5] [--flooders=48] [--objects=2000] [--same-level]`.
import { request, until } from '../../test/harness/index.js';
import { arg, flag, httpsClient, now, report, runMain, seedConfigMaps, stats, withBenchCluster, type Row } from './common.js';
import { startFlood } from './flood-worker.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['seconds', 'flooders', 'objects', 'same-level']);

const seconds = arg('seconds', 5);
const flooders = arg('flooders', 48);
const objects = arg('objects', 2000);
const ns = 'apf-bench';
const sameLevel = flag('same-level');
const flowcontrol = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
/** The flooder's own level: 10 shares of about 255, so 6 of the 150 seats here. */
const lowLevel = {
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'PriorityLevelConfiguration', metadata: { name: 'bench-low' },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } },
};
const lowSchema = {
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'bench-flooder' },
  spec: {
    priorityLevelConfiguration: { name: 'bench-low' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: [{ kind: 'User', user: { name: 'flooder' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
  },
};

/** Latencies of back-to-back calls of `fn` for `ms`, from one caller. */
async function paced(ms: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  const end = now() + ms;
  while (now() < end) {
    const t0 = now();
    await fn();
    out.push(now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  return out;
}

runMain(async () => {
  const tokens = [{ token: 'flood-token', name: 'flooder' }, { token: 'victim-token', name: 'victim' }];
  await withBenchCluster('apf', async ({ cluster, raw, prefix, etcdEndpoint }) => {
    const admin = httpsClient(cluster.urls[0]!, cluster.credentialsFor());
    await admin.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await seedConfigMaps(raw, prefix, ns, objects, 1024);
    let lowUid = '';
    if (!sameLevel) {
      const plc = await admin.call('POST', `${flowcontrol}/prioritylevelconfigurations`, lowLevel);
      if (plc.status !== 201) throw new Error(`create priority level: ${plc.status} ${plc.text}`);
      lowUid = (JSON.parse(plc.text) as { metadata: { uid: string } }).metadata.uid;
      const fs = await admin.call('POST', `${flowcontrol}/flowschemas`, lowSchema);
      if (fs.status !== 201) throw new Error(`create flow schema: ${fs.status} ${fs.text}`);
    }
    admin.close();
    // A fresh start counts the seeded objects at once (the periodic count runs every minute),
    // so APF's work estimate sees the lists' real size.
    await cluster.stopReplica(0);
    await cluster.startReplica(0);
    const victim = httpsClient(cluster.urls[0]!, { ...cluster.credentialsFor('anonymous'), token: 'victim-token' }, 2);
    const flooderCreds = { ...cluster.credentialsFor('anonymous'), token: 'flood-token' };
    if (!sameLevel) {
      // The controller learns the new schema from its informer: wait until it classifies by it.
      await until('the flooder classified into bench-low', async () =>
        (await request(`${cluster.urls[0]!}/api/v1/namespaces/${ns}/configmaps?limit=1`, flooderCreds)).headers['x-kubernetes-pf-prioritylevel-uid'] === lowUid,
      10_000, 100);
    }
    const get = async () => { const r = await victim.call('GET', `/api/v1/namespaces/${ns}/configmaps/cm-000001`); if (r.status !== 200) throw new Error(`GET ${r.status}`); };
    const ms = seconds * 1000;

    await paced(500, get);
    const oursIdle = stats(await paced(ms, get));
    const f = startFlood({ kind: 'http', base: cluster.urls[0]!, path: `/api/v1/namespaces/${ns}/configmaps`, token: flooderCreds.token, ca: String(flooderCreds.ca) }, flooders);
    const oursLoaded = stats(await paced(ms, get));
    const outcomes = await f.stop();

    const key = `${prefix}/configmaps/${ns}/cm-000001`;
    const rawGet = async () => { await raw.get(key).buffer(); };
    const etcdIdle = stats(await paced(ms, rawGet));
    const rf = startFlood({ kind: 'etcd', endpoint: etcdEndpoint, prefix: `${prefix}/configmaps/${ns}/` }, flooders);
    const etcdLoaded = stats(await paced(ms, rawGet));
    await rf.stop();
    victim.close();

    const rows: Row[] = [
      { measure: 'victim GET p50, idle', unit: 'ms', ours: oursIdle.p50, etcd: etcdIdle.p50 },
      { measure: 'victim GET p99, idle', unit: 'ms', ours: oursIdle.p99, etcd: etcdIdle.p99 },
      { measure: `victim GET p50, ${flooders} LIST flooders`, unit: 'ms', ours: oursLoaded.p50, etcd: etcdLoaded.p50 },
      { measure: `victim GET p99, ${flooders} LIST flooders`, unit: 'ms', ours: oursLoaded.p99, etcd: etcdLoaded.p99 },
      { measure: 'p99 under flood / p99 idle', unit: 'x', ours: oursLoaded.p99 / oursIdle.p99, etcd: etcdLoaded.p99 / etcdIdle.p99 },
    ];
    report(sameLevel ? 'apf-same-level' : 'apf', `APF isolation: one user floods LIST (${objects} objects), another GETs (${sameLevel ? 'same priority level' : 'flooder in a low priority level'})`, rows,
      { flooderOutcomes: outcomes, samples: { idle: oursIdle.n, loaded: oursLoaded.n } });
    console.log(`flooder outcomes by status: ${JSON.stringify(outcomes)}`);
  }, { replicas: 1, tokens, extraArgs: ['--max-requests-inflight=100', '--max-mutating-requests-inflight=50'] });
});
