// Replicas against an etcd with auth on, as a shared or hardened etcd runs: client
// certificates required (--client-cert-auth), the etcd user is the certificate's CN, and
// kube-apiserver's user holds a role on its --etcd-prefix's range and on upstream v1.28's
// one key outside it (the compactors' compact_rev_key) only. Every other key is refused
// with "etcdserver: permission denied". The replicas must start, serve reads and writes,
// pages and watches, compact, run their elected controllers and pass their etcd health
// checks without ever being refused.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { prefixEnd } from '../../pkg/storage/etcd/keys.js';
import { compactRevKey } from '../../pkg/storage/etcd/compactor.js';
import { memberClient } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { issueCertificate, writeKeyPair } from '../../pkg/util/cert/index.js';
import { etcdClientArgs, startTLSEtcd, type TLSTestEtcd } from '../harness/etcd-tls.js';
import { eventually, request, startReplicas, uniquePrefix, watch, type Cluster, type HttpResponse } from '../harness/index.js';

const deniedText = /permission denied/i;

/** Turns auth on: root (by its certificate's CN) and the apiserver's user, confined to `prefix` and compact_rev_key. */
async function enableAuth(etcd: TLSTestEtcd, prefix: string): Promise<Etcd3> {
  const { pki } = etcd;
  const rootPair = await issueCertificate(pki.ca, { cn: 'root', usage: 'client' });
  const root = await writeKeyPair(join(pki.dir, 'etcd'), 'root-client', rootPair);
  const setup = memberClient([etcd.endpoint], { caFile: pki.ca.certFile, certFile: pki.apiserverClient.certFile, keyFile: pki.apiserverClient.keyFile }, 10_000);
  try {
    const auth = setup.auth;
    const apiserverUser = 'kube-apiserver-etcd-client'; // the CN of --etcd-certfile
    await auth.userAdd({ name: 'root', password: 'unused-root' });
    await auth.userGrantRole({ user: 'root', role: 'root' });
    await auth.roleAdd({ name: 'kube-apiserver' });
    const inPrefix = Buffer.from(`${prefix}/`);
    await auth.roleGrantPermission({ name: 'kube-apiserver', perm: { permType: 'Readwrite', key: inPrefix, range_end: prefixEnd(inPrefix) } });
    await auth.roleGrantPermission({ name: 'kube-apiserver', perm: { permType: 'Readwrite', key: Buffer.from(compactRevKey), range_end: Buffer.alloc(0) } });
    await auth.userAdd({ name: apiserverUser, password: 'unused-apiserver' });
    await auth.userGrantRole({ user: apiserverUser, role: 'kube-apiserver' });
    await auth.authEnable();
  } finally {
    setup.close();
  }
  return memberClient([etcd.endpoint], { caFile: pki.ca.certFile, certFile: root.certFile, keyFile: root.keyFile }, 10_000);
}

describe('e2e: an etcd with auth on, the apiserver confined to its prefix', function () {
  this.timeout(180_000);
  let etcd: TLSTestEtcd;
  let root: Etcd3;
  let cluster: Cluster;
  const prefix = uniquePrefix('etcd-auth');
  /** Every answer's text, checked at the end for a refusal. */
  const answers: string[] = [];

  const api = async <T = Record<string, unknown>>(i: number, method: string, path: string, body?: unknown): Promise<HttpResponse<T>> => {
    const res = await request<T>(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor(), method, body });
    answers.push(`${method} ${path}: ${res.status} ${res.text}`);
    return res;
  };
  const cm = (ns: string, name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { a: name } });

  before(async () => {
    etcd = await startTLSEtcd();
    root = await enableAuth(etcd, prefix);
    // Confined indeed: the user is refused outside the prefix, as the replicas would be.
    const confined = memberClient([etcd.endpoint], { caFile: etcd.pki.ca.certFile, certFile: etcd.pki.apiserverClient.certFile, keyFile: etcd.pki.apiserverClient.keyFile }, 10_000);
    try {
      const refused = await confined.get('health').string().then(() => 'read', (e: Error) => e.message);
      expect(refused).to.match(deniedText);
    } finally {
      confined.close();
    }
    cluster = await startReplicas(2, {
      etcdEndpoint: etcd.endpoint, etcdPrefix: prefix,
      extraArgs: [...etcdClientArgs(etcd.pki), '--etcd-compaction-interval=2s'],
    });
  });
  after(async () => {
    await cluster?.stop();
    root?.close();
    await etcd?.stop();
  });

  it('passes the etcd checks of /readyz, /livez, /healthz and componentstatuses', async () => {
    for (const i of [0, 1]) {
      const ready = await api(i, 'GET', '/readyz?verbose');
      expect(ready.status, ready.text).to.equal(200);
      expect(ready.text).to.include('[+]etcd ok').and.include('[+]etcd-readiness ok');
      const live = await api(i, 'GET', '/livez?verbose');
      expect(live.status, live.text).to.equal(200);
      expect(live.text).to.include('[+]etcd ok');
      expect((await api(i, 'GET', '/healthz/etcd')).text).to.equal('ok');
    }
    const cs = await api<{ conditions: Array<{ type: string; status: string }> }>(0, 'GET', '/api/v1/componentstatuses/etcd-0');
    expect(cs.status, cs.text).to.equal(200);
    expect(cs.body.conditions).to.deep.include({ type: 'Healthy', status: 'True', message: 'ok' });
  });

  it('creates, reads, updates and deletes, across replicas', async () => {
    expect((await api(0, 'POST', '/api/v1/namespaces/default/configmaps', cm('default', 'crud'))).status).to.equal(201);
    const got = await api<{ data: Record<string, string>; metadata: { resourceVersion: string } }>(1, 'GET', '/api/v1/namespaces/default/configmaps/crud');
    expect(got.status, got.text).to.equal(200);
    expect(got.body.data).to.deep.equal({ a: 'crud' });
    const updated = await api(1, 'PUT', '/api/v1/namespaces/default/configmaps/crud', { ...cm('default', 'crud'), data: { a: 'changed' }, metadata: { name: 'crud', namespace: 'default', resourceVersion: got.body.metadata.resourceVersion } });
    expect(updated.status, updated.text).to.equal(200);
    expect((await api(0, 'DELETE', '/api/v1/namespaces/default/configmaps/crud')).status).to.equal(200);
    expect((await api(1, 'GET', '/api/v1/namespaces/default/configmaps/crud')).status).to.equal(404);
  });

  it('lists in pages (limit and continue) and watches', async () => {
    expect((await api(0, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paged' } })).status).to.equal(201);
    for (let n = 0; n < 5; n++) expect((await api(n % 2, 'POST', '/api/v1/namespaces/paged/configmaps', cm('paged', `c${n}`))).status).to.equal(201);
    // The root CA publisher (an elected controller) adds its own: waited for, so the pages are known.
    await eventually('kube-root-ca.crt published in paged', async () => ((await api(0, 'GET', '/api/v1/namespaces/paged/configmaps/kube-root-ca.crt')).status === 200 ? true : undefined), 30_000, 200);
    type List = { items: Array<{ metadata: { name: string } }>; metadata: { continue?: string; resourceVersion: string } };
    for (const i of [0, 1]) {
      const names: string[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const page = await api<List>(i, 'GET', `/api/v1/namespaces/paged/configmaps?limit=2${next ? `&continue=${encodeURIComponent(next)}` : ''}`);
        expect(page.status, page.text).to.equal(200);
        names.push(...page.body.items.map((o) => o.metadata.name));
        next = page.body.metadata.continue;
        pages++;
      } while (next);
      expect(names).to.deep.equal(['c0', 'c1', 'c2', 'c3', 'c4', 'kube-root-ca.crt']);
      expect(pages).to.equal(3);
    }
    const list = await api<List>(1, 'GET', '/api/v1/namespaces/paged/configmaps');
    const w = await watch<{ metadata: { name: string } }>(`${cluster.urls[1]}/api/v1/namespaces/paged/configmaps?watch=1&resourceVersion=${list.body.metadata.resourceVersion}`, cluster.credentialsFor());
    try {
      expect((await api(0, 'POST', '/api/v1/namespaces/paged/configmaps', cm('paged', 'watched'))).status).to.equal(201);
      const ev = await w.next(10_000);
      expect([ev.type, ev.object.metadata.name]).to.deep.equal(['ADDED', 'watched']);
    } finally {
      w.close();
    }
  });

  it('compacts etcd, and answers 410 for a revision compacted away', async () => {
    type List = { metadata: { continue?: string; resourceVersion: string } };
    const before = await api<List>(0, 'GET', '/api/v1/namespaces/paged/configmaps?limit=2');
    const token = before.body.metadata.continue!;
    // Written past the page so that the compaction the replicas make passes it.
    for (let n = 0; n < 3; n++) await api(0, 'POST', '/api/v1/namespaces/default/configmaps', cm('default', `later-${n}`));
    await eventually('etcd compacted past the first page', async () => {
      await api(0, 'POST', '/api/v1/namespaces/default/configmaps', cm('default', `tick-${Date.now()}`));
      const err = await root.kv.range({ key: Buffer.from(`${prefix}/`), revision: String(Number(before.body.metadata.resourceVersion) + 1) })
        .then(() => undefined, (e: Error) => e);
      return err && /compacted/.test(err.message) ? true : undefined;
    }, 30_000, 500);
    const state = await root.get(compactRevKey).string();
    expect(Number(state), 'compact_rev_key names a compacted revision').to.be.greaterThan(0);
    for (const i of [0, 1]) {
      const expired = await api<{ code: number; reason: string }>(i, 'GET', `/api/v1/namespaces/paged/configmaps?limit=2&continue=${encodeURIComponent(token)}`);
      expect([expired.status, expired.body.reason], expired.text).to.deep.equal([410, 'Expired']);
      const w = await watch<{ code: number }>(`${cluster.urls[i]}/api/v1/namespaces/paged/configmaps?watch=1&resourceVersion=${before.body.metadata.resourceVersion}`, cluster.credentialsFor());
      try {
        const ev = await w.next(10_000);
        expect([ev.type, ev.object.code]).to.deep.equal(['ERROR', 410]);
      } finally {
        w.close();
      }
    }
  });

  it('runs the elected controllers: the namespace controller empties and removes a namespace, the kubernetes service has its endpoints', async () => {
    expect((await api(0, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } })).status).to.equal(201);
    expect((await api(1, 'POST', '/api/v1/namespaces/doomed/configmaps', cm('doomed', 'inside'))).status).to.equal(201);
    expect((await api(1, 'DELETE', '/api/v1/namespaces/doomed')).status).to.equal(200);
    await eventually('namespace doomed removed', async () => ((await api(0, 'GET', '/api/v1/namespaces/doomed')).status === 404 ? true : undefined), 60_000, 500);
    const left = await root.get(`${prefix}/configmaps/doomed/inside`).string();
    expect(left, 'the configmap inside is gone from etcd').to.equal(null);
    const endpoints = await eventually('the kubernetes service has endpoints', async () => {
      const res = await api<{ subsets?: Array<{ addresses?: unknown[] }> }>(0, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes');
      return res.status === 200 && (res.body.subsets?.[0]?.addresses?.length ?? 0) > 0 ? res.body : undefined;
    }, 30_000, 500);
    expect(endpoints.subsets?.[0]?.addresses).to.have.length.at.least(1);
  });

  it('was never refused by etcd: no answer and no replica log says permission denied', async () => {
    expect(answers.filter((a) => deniedText.test(a))).to.deep.equal([]);
    for (const r of cluster.replicas) {
      const denied = readFileSync(r.logFile, 'utf8').split('\n').filter((line) => deniedText.test(line));
      expect(denied, `replica ${r.index}'s log`).to.deep.equal([]);
    }
  });

  // Last: refusals from here on. An etcd error upstream's storage does not interpret
  // reaches its handler as a plain error: ErrorToAPIStatus's 500 with etcd's text as the
  // message, no reason, no details (kubectl: "Error from server: etcdserver: permission denied").
  it('answers an etcd refusal it does not interpret as upstream: 500, etcd\'s text, no reason', async () => {
    const inPrefix = Buffer.from(`${prefix}/`);
    const secrets = Buffer.from(`${prefix}/secrets/`);
    await root.auth.roleGrantPermission({ name: 'kube-apiserver', perm: { permType: 'Readwrite', key: inPrefix, range_end: secrets } });
    await root.auth.roleGrantPermission({ name: 'kube-apiserver', perm: { permType: 'Readwrite', key: prefixEnd(secrets), range_end: prefixEnd(inPrefix) } });
    await root.auth.roleRevokePermission({ role: 'kube-apiserver', key: inPrefix, range_end: prefixEnd(inPrefix) });
    const expected = `${JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: permission denied', code: 500 })}\n`;
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'refused' }, data: { k: 'dg==' } };
    const created = await request(`${cluster.urls[0]}/api/v1/namespaces/default/secrets`, { ...cluster.credentialsFor(), method: 'POST', body: secret });
    expect([created.status, created.text]).to.deep.equal([500, expected]);
    const listed = await request(`${cluster.urls[1]}/api/v1/namespaces/default/secrets?limit=1`, { ...cluster.credentialsFor() });
    expect([listed.status, listed.text]).to.deep.equal([500, expected]);
  });
});
