// Benchmark of who-can (ResourceAccessReview) with 10,000 RoleBindings and 1,000
// ClusterRoles (plus the bootstrap policy):
//   1. the answer's cost in process: the subject locator over the RBAC index, p50/p99;
//   2. through HTTPS: LocalResourceAccessReview and ResourceAccessReview POSTs to one
//      replica whose index was fed by watch from the same objects written to etcd.
// Run: `node dist/hack/bench/whocan.js [--rolebindings=10000] [--clusterroles=1000]
//   [--namespaces=100] [--samples=2000] [--http-samples=500]`. Target: p99 < 5 ms.
import { cpus, loadavg } from 'node:os';
import { PolicyIndex } from '../../pkg/authorization/rbac/index.js';
import { RBACRuleResolver } from '../../pkg/authorization/rbac/resolver.js';
import type { BindingObject, ClusterRoleObject } from '../../pkg/authorization/rbac/types.js';
import type { Action } from '../../pkg/authorization/whocan/interfaces.js';
import { RBACSubjectLocator } from '../../pkg/authorization/whocan/rbac.js';
import { bootstrapPolicy } from '../../pkg/bootstrappolicy/index.js';
import type { KubeObject } from '../../pkg/runtime/object.js';
import { encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { arg, httpsClient, now, report, runMain, stats, withBenchCluster } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['rolebindings', 'clusterroles', 'namespaces', 'samples', 'http-samples']);

const nBindings = arg('rolebindings', 10_000);
const nClusterRoles = arg('clusterroles', 1000);
const nNamespaces = arg('namespaces', 100);
const samples = arg('samples', 2000);
const httpSamples = arg('http-samples', 500);
const g = 'rbac.authorization.k8s.io';
const resources = ['configmaps', 'secrets', 'pods', 'services', 'deployments'];

function policy(): { clusterRoles: ClusterRoleObject[]; roleBindings: BindingObject[] } {
  const clusterRoles: ClusterRoleObject[] = [];
  for (let i = 0; i < nClusterRoles; i++) {
    clusterRoles.push({ apiVersion: `${g}/v1`, kind: 'ClusterRole', metadata: { name: `bench-role-${i}` }, rules: [
      { apiGroups: [''], resources: [resources[i % 5]!, `${resources[(i + 1) % 5]!}/status`], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: i % 7 === 0 ? ['*'] : ['get', 'update'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [`s-${i}`] },
    ] });
  }
  const roleBindings: BindingObject[] = [];
  for (let i = 0; i < nBindings; i++) {
    roleBindings.push({ apiVersion: `${g}/v1`, kind: 'RoleBinding', metadata: { name: `bench-binding-${i}`, namespace: `bench-ns-${i % nNamespaces}` },
      roleRef: { apiGroup: g, kind: 'ClusterRole', name: `bench-role-${i % nClusterRoles}` },
      subjects: [{ kind: 'User', apiGroup: g, name: `user-${i}` }, { kind: 'Group', apiGroup: g, name: `team-${i % 50}` },
        { kind: 'ServiceAccount', name: `sa-${i % 10}`, namespace: `bench-ns-${i % nNamespaces}` }] });
  }
  return { clusterRoles, roleBindings };
}

function actions(n: number): Action[] {
  const out: Action[] = [];
  for (let i = 0; i < n; i++) {
    const resource = resources[i % 5]!;
    out.push({ verb: ['get', 'list', 'update', 'delete'][i % 4]!, isResourceRequest: true, path: '', namespace: i % 10 === 0 ? '' : `bench-ns-${i % nNamespaces}`,
      apiGroup: resource === 'deployments' ? 'apps' : '', apiVersion: 'v1', resource, subresource: '', name: i % 3 === 0 ? `s-${i % nClusterRoles}` : '' });
  }
  return out;
}

function inProcess(): { p50: number; p99: number; cpuMean: number; subjects: number } {
  const p = policy();
  const boot = bootstrapPolicy();
  const idx = PolicyIndex.fromObjects({ clusterRoles: [...p.clusterRoles, ...boot.clusterRoles], roleBindings: [...p.roleBindings, ...boot.roleBindings],
    roles: boot.roles, clusterRoleBindings: boot.clusterRoleBindings });
  const locator = new RBACSubjectLocator(idx, new RBACRuleResolver(idx));
  const as = actions(samples);
  for (const a of as.slice(0, 200)) locator.locate(a);
  const times: number[] = [];
  let subjects = 0;
  // CPU time beside wall time: on a loaded machine the wall-clock tail is mostly waiting for a core.
  const cpu0 = process.cpuUsage();
  for (const a of as) {
    const t0 = now();
    const r = locator.locate(a);
    times.push(now() - t0);
    subjects += r.users.size + r.groups.size;
  }
  const cpu = process.cpuUsage(cpu0);
  const s = stats(times);
  return { p50: s.p50, p99: s.p99, cpuMean: (cpu.user + cpu.system) / 1000 / as.length, subjects: subjects / as.length };
}

async function overHttps(): Promise<{ p50: number; p99: number }> {
  let result = { p50: NaN, p99: NaN };
  await withBenchCluster('whocan', async ({ cluster, raw, prefix }) => {
    const p = policy();
    const put = async (objs: KubeObject[], key: (o: KubeObject) => string) => {
      for (let i = 0; i < objs.length; i += 128) {
        const ops = objs.slice(i, i + 128).map((o) => ({ request_put: { key: Buffer.from(`${prefix}/${key(o)}`), value: encodeForStorage(o, 'application/vnd.kubernetes.protobuf') } }));
        await raw.kv.txn({ compare: [], success: ops, failure: [] });
      }
    };
    await put(p.clusterRoles, (o) => `clusterroles/${o.metadata.name}`);
    await put(p.roleBindings, (o) => `rolebindings/${o.metadata.namespace}/${o.metadata.name}`);
    const c = httpsClient(cluster.urls[0]!, cluster.credentialsFor('admin'), 1);
    const last = p.roleBindings[p.roleBindings.length - 1]!;
    const probe = { verb: 'get', resource: resources[((p.roleBindings.length - 1) % nClusterRoles) % 5], namespace: last.metadata.namespace };
    // The index follows etcd by watch: wait until the last binding written is in answers.
    for (const deadline = Date.now() + 60_000; ;) {
      const r = await c.call('POST', `/apis/authorization.openshift.io/v1/namespaces/${last.metadata.namespace}/localresourceaccessreviews`, probe);
      if (r.text.includes(`"${last.subjects![0]!.name}"`)) break;
      if (Date.now() > deadline) throw new Error(`index never showed ${last.metadata.name}: ${r.status} ${r.text.slice(0, 200)}`);
      await new Promise((res) => setTimeout(res, 200));
    }
    const as = actions(httpSamples);
    const times: number[] = [];
    for (const a of as) {
      const body = { verb: a.verb, resourceAPIGroup: a.apiGroup, resource: a.resource, resourceName: a.name };
      const path = a.namespace ? `/apis/authorization.openshift.io/v1/namespaces/${a.namespace}/localresourceaccessreviews` : '/apis/authorization.openshift.io/v1/resourceaccessreviews';
      const t0 = now();
      const r = await c.call('POST', path, body);
      times.push(now() - t0);
      if (r.status !== 201) throw new Error(`review answered ${r.status}: ${r.text.slice(0, 200)}`);
    }
    c.close();
    const s = stats(times);
    result = { p50: s.p50, p99: s.p99 };
  }, { replicas: 1, authorizationMode: 'RBAC' });
  return result;
}

runMain(async () => {
  const mem = inProcess();
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  console.log(`who-can over ${nBindings} RoleBindings in ${nNamespaces} namespaces and ${nClusterRoles} ClusterRoles (+ bootstrap policy): ${mem.subjects.toFixed(0)} subjects per answer on average`);
  const http = await overHttps();
  report('whocan', `who-can: ${nBindings} RoleBindings, ${nClusterRoles} ClusterRoles (target p99 < 5 ms)`, [
    { measure: 'locator in process p50', unit: 'ms', ours: mem.p50 },
    { measure: 'locator in process p99', unit: 'ms', ours: mem.p99 },
    { measure: 'locator in process, CPU per answer (mean)', unit: 'ms', ours: mem.cpuMean },
    { measure: 'review over HTTPS p50', unit: 'ms', ours: http.p50 },
    { measure: 'review over HTTPS p99', unit: 'ms', ours: http.p99 },
  ]);
});
