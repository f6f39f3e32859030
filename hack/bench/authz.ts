// Benchmark of authorization, all on this machine:
//   1. RBAC decisions per second over an index of 1,000 Roles and 1,000 RoleBindings
//      (plus the bootstrap policy), for allowed and denied requests.
//   2. End-to-end GET latency of one ConfigMap through a replica with
//      --authorization-mode=RBAC (same 1,000 roles and bindings stored) versus a replica
//      with AlwaysAllow, in the same run, as a ratio.
// Run: `node dist/hack/bench/authz.js [--roles=1000] [--decisions=200000] [--samples=1000]`.
import { Agent, request as httpsRequest } from 'node:https';
import { RBACAuthorizer } from '../../pkg/authorization/rbac/authorizer.js';
import { PolicyIndex } from '../../pkg/authorization/rbac/index.js';
import { RBACRuleResolver } from '../../pkg/authorization/rbac/resolver.js';
import type { BindingObject, RoleObject } from '../../pkg/authorization/rbac/types.js';
import type { Attributes } from '../../pkg/authorization/interfaces.js';
import { bootstrapPolicy } from '../../pkg/bootstrappolicy/index.js';
import { startReplicas, type TlsCredentials } from '../../test/harness/index.js';
import { arg } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['roles', 'decisions', 'samples']);

const nRoles = arg('roles', 1000);
const nDecisions = arg('decisions', 200_000);
const samples = arg('samples', 1000);
const namespaces = 50;
const g = 'rbac.authorization.k8s.io';
const now = () => Number(process.hrtime.bigint()) / 1e6;

function policy(): { roles: RoleObject[]; bindings: BindingObject[] } {
  const roles: RoleObject[] = [];
  const bindings: BindingObject[] = [];
  for (let i = 0; i < nRoles; i++) {
    const namespace = `ns-${i % namespaces}`;
    roles.push({ metadata: { name: `role-${i}`, namespace }, rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], verbs: ['get', 'update'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: [`s-${i}`] },
    ] });
    bindings.push({ metadata: { name: `binding-${i}`, namespace }, roleRef: { apiGroup: g, kind: 'Role', name: `role-${i}` },
      subjects: [{ kind: 'User', apiGroup: g, name: `user-${i}` }, { kind: 'Group', apiGroup: g, name: `team-${i % 20}` }] });
  }
  return { roles, bindings };
}

function decisionBench(): void {
  const p = policy();
  const boot = bootstrapPolicy();
  const idx = PolicyIndex.fromObjects({ roles: [...p.roles, ...boot.roles], roleBindings: [...p.bindings, ...boot.roleBindings],
    clusterRoles: boot.clusterRoles, clusterRoleBindings: boot.clusterRoleBindings });
  const authz = new RBACAuthorizer(new RBACRuleResolver(idx));
  const attrs: Attributes[] = [];
  for (let i = 0; i < 1000; i++) {
    const user = { name: `user-${i}`, groups: [`team-${i % 20}`, 'system:authenticated'] };
    const base = { user, isResourceRequest: true, path: '', apiVersion: 'v1', subresource: '', name: '' };
    attrs.push({ ...base, verb: 'list', namespace: `ns-${i % namespaces}`, apiGroup: '', resource: 'configmaps' }); // allowed
    attrs.push({ ...base, verb: 'delete', namespace: `ns-${i % namespaces}`, apiGroup: '', resource: 'configmaps', name: 'x' }); // denied
    attrs.push({ ...base, verb: 'get', namespace: `ns-${(i + 1) % namespaces}`, apiGroup: '', resource: 'secrets', name: `s-${i}` }); // denied elsewhere
  }
  let allowed = 0;
  for (let i = 0; i < 10_000; i++) authz.decide(attrs[i % attrs.length]!);
  const t0 = now();
  for (let i = 0; i < nDecisions; i++) if (authz.decide(attrs[i % attrs.length]!).decision === 'allow') allowed++;
  const elapsed = now() - t0;
  console.log(`RBAC decisions: ${nRoles} Roles + ${nRoles} RoleBindings (+ ${boot.clusterRoles.length} ClusterRoles, ${boot.clusterRoleBindings.length} ClusterRoleBindings)`);
  console.log(`  ${nDecisions} decisions in ${elapsed.toFixed(0)} ms = ${Math.round(nDecisions / (elapsed / 1000)).toLocaleString('en-US')} decisions/s (${allowed} allowed, ${nDecisions - allowed} not)`);
}

function client(base: string, creds: TlsCredentials) {
  const agent = new Agent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key, maxSockets: 16 });
  return (method: string, path: string, body?: unknown): Promise<number> => new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const u = new URL(path, base);
    const req = httpsRequest({ method, hostname: u.hostname, port: u.port, path: u.pathname, agent, headers: {
      Accept: 'application/json', ...(creds.token ? { Authorization: `Bearer ${creds.token}` } : {}),
      ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}),
    } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); res.on('error', reject); });
    req.on('error', reject);
    req.end(payload);
  });
}

async function pool<T>(items: T[], width: number, fn: (t: T) => Promise<void>): Promise<void> {
  const q = [...items];
  await Promise.all(Array.from({ length: width }, async () => { for (let x = q.shift(); x !== undefined; x = q.shift()) await fn(x); }));
}

async function latencyBench(): Promise<void> {
  const tokens = [{ token: 'bench-token', name: 'user-7', groups: ['team-7'] }];
  const [allow, rbac] = await Promise.all([
    startReplicas(1, { authorizationMode: 'AlwaysAllow', tokens }),
    startReplicas(1, { authorizationMode: 'RBAC', tokens }),
  ]);
  try {
    const p = policy();
    const adminRbac = client(rbac.urls[0]!, rbac.credentialsFor('admin'));
    const adminAllow = client(allow.urls[0]!, allow.credentialsFor('admin'));
    for (let i = 0; i < namespaces; i++) {
      for (const c of [adminRbac, adminAllow]) await c('POST', '/api/v1/namespaces', { metadata: { name: `ns-${i}` } });
    }
    const t0 = now();
    await pool(p.roles, 16, async (r) => { await adminRbac('POST', `/apis/${g}/v1/namespaces/${r.metadata.namespace}/roles`, r); });
    await pool(p.bindings, 16, async (b) => { await adminRbac('POST', `/apis/${g}/v1/namespaces/${b.metadata.namespace}/rolebindings`, b); });
    console.log(`stored ${nRoles} Roles and ${nRoles} RoleBindings in ${(now() - t0).toFixed(0)} ms`);
    const path = '/api/v1/namespaces/ns-7/configmaps/bench';
    for (const c of [adminRbac, adminAllow]) await c('POST', '/api/v1/namespaces/ns-7/configmaps', { metadata: { name: 'bench' }, data: { k: 'v' } });
    const userRbac = client(rbac.urls[0]!, rbac.credentialsFor('user-7'));
    const userAllow = client(allow.urls[0]!, allow.credentialsFor('user-7'));
    for (let i = 0; i < 200 && (await userRbac('GET', path)) !== 200; i++) await new Promise((r) => setTimeout(r, 20));
    const measure = async (c: ReturnType<typeof client>): Promise<number[]> => {
      const xs: number[] = [];
      for (let i = 0; i < 50; i++) await c('GET', path);
      for (let i = 0; i < samples; i++) {
        const s = now();
        const code = await c('GET', path);
        if (code !== 200) throw new Error(`GET answered ${code}`);
        xs.push(now() - s);
      }
      return xs.sort((a, b) => a - b);
    };
    // Interleave rounds so that machine noise hits both sides alike.
    const a: number[] = [];
    const r: number[] = [];
    for (let round = 0; round < 4; round++) {
      a.push(...(await measure(userAllow)));
      r.push(...(await measure(userRbac)));
    }
    const q = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))]!;
    const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
    console.log(`GET one ConfigMap as a token user, ${a.length} samples each (keep-alive):`);
    console.log(`  AlwaysAllow: p50 ${q(a, 0.5).toFixed(3)} ms, p99 ${q(a, 0.99).toFixed(3)} ms, mean ${mean(a).toFixed(3)} ms`);
    console.log(`  RBAC:        p50 ${q(r, 0.5).toFixed(3)} ms, p99 ${q(r, 0.99).toFixed(3)} ms, mean ${mean(r).toFixed(3)} ms`);
    console.log(`  ratio RBAC / AlwaysAllow: p50 ${(q(r, 0.5) / q(a, 0.5)).toFixed(3)}, mean ${(mean(r) / mean(a)).toFixed(3)}`);
  } finally {
    await Promise.all([allow.stop(), rbac.stop()]);
  }
}

decisionBench();
await latencyBench();
process.exit(0);
