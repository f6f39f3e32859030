// Shadow mode through HTTPS: two of our replicas on one etcd, one ("upstream", its own
// cluster and PKI) altering its answers for one object by a test-only hook, the other
// started with --shadow-upstream=<upstream's kubeconfig> --shadow-fraction=1. Same
// answers are counted same, the altered one different and logged with both bodies, the
// caller's identity reaches upstream by impersonation, writes and watches are never
// copied, and an unreachable upstream counts as upstream_error.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { kubectl, request, startReplicas, until, type Cluster } from '../harness/index.js';

describe('shadow mode (--shadow-upstream) over HTTPS', function () {
  this.timeout(120_000);
  let upstream: Cluster;
  let ours: Cluster;
  const ns = `shadow-${Date.now().toString(36)}`;
  const call = (path: string, opts: Parameters<typeof request>[1] = {}, user = 'admin') =>
    request(`${ours.urls[0]}${path}`, { ...ours.credentialsFor(user), ...opts });
  const counts = async (): Promise<Record<string, number>> => {
    const text = (await call('/metrics')).text;
    const out: Record<string, number> = { same: 0, different: 0, upstream_error: 0 };
    for (const m of text.matchAll(/^apiserver_shadow_comparisons_total\{result="([a-z_]+)"\} (\d+)/gm)) out[m[1]!] = Number(m[2]);
    return out;
  };
  const settle = async (want: (c: Record<string, number>) => boolean) => until('comparisons counted', async () => {
    const c = await counts();
    return want(c) && c;
  }, 20_000, 100);

  before(async () => {
    upstream = await startReplicas(1, { authorizationMode: 'RBAC', tokens: [{ token: 'b', name: 'bob', groups: ['devs'] }],
      env: { KUBE_APISERVER_TS_TEST_ALTER_ANSWERS: '/configmaps/altered' } });
    ours = await startReplicas(1, {
      etcdEndpoint: upstream.etcdEndpoint, etcdPrefix: upstream.etcdPrefix, authorizationMode: 'RBAC',
      tokens: [{ token: 'b', name: 'bob', groups: ['devs'] }],
      extraArgs: [`--shadow-upstream=${upstream.kubeconfigFor(0)}`, '--shadow-fraction=1', '--controllers=-*'],
    });
    expect((await call('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: ns } } })).status).to.equal(201);
    for (const name of ['plain', 'altered']) {
      expect((await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: { metadata: { name }, data: { k: 'v' } } })).status).to.equal(201);
    }
    // Let the writes' own effects settle before counting (only reads are ever copied).
    await new Promise((r) => setTimeout(r, 300));
  });
  after(async () => {
    await ours?.stop();
    await upstream?.stop();
  });

  it('the same answers are counted same: get, list, discovery, OpenAPI, kubectl get --raw', async () => {
    const before = await counts();
    expect(before.different).to.equal(0);
    for (const p of [`/api/v1/namespaces/${ns}/configmaps/plain`, `/api/v1/namespaces/${ns}/configmaps`, '/api', '/apis', '/apis/apps/v1', '/version', '/openapi/v2']) {
      expect((await call(p)).status, p).to.equal(200);
    }
    const raw = await kubectl(['get', '--raw', `/api/v1/namespaces/${ns}/configmaps/plain`], { kubeconfig: ours.kubeconfigFor(0) });
    expect(raw.code, raw.stderr).to.equal(0);
    const after = await settle((c) => c.same >= before.same + 8);
    expect(after.different).to.equal(0);
    expect(after.upstream_error).to.equal(0);
  });

  it('a different answer is counted and logged with both bodies', async () => {
    const before = await counts();
    const r = await call(`/api/v1/namespaces/${ns}/configmaps/altered`);
    expect(r.status).to.equal(200);
    expect((r.body as { metadata: { labels?: unknown } }).metadata.labels).to.equal(undefined); // ours, unaltered, at once
    await settle((c) => c.different === before.different + 1);
    const line = await until('difference logged', () => readFileSync(ours.replicas[0]!.logFile, 'utf8').split('\n')
      .find((l) => l.includes('shadow: upstream answered differently')));
    const logged = JSON.parse(line) as { shadow: { path: string; user: string; firstDifference: string; ours: string; upstream: string; status: unknown } };
    expect(logged.shadow).to.deep.include({ path: `/api/v1/namespaces/${ns}/configmaps/altered`, user: 'admin', firstDifference: '/metadata/labels', status: { ours: 200, upstream: 200 } });
    expect(logged.shadow.upstream).to.contain('shadow-test/altered');
    expect(logged.shadow.ours).to.not.contain('shadow-test/altered');
  });

  it('upstream answers as the same user: a denied read is denied there too (same)', async () => {
    const before = await counts();
    const r = await call(`/api/v1/namespaces/${ns}/configmaps/plain`, {}, 'bob');
    expect(r.status).to.equal(403);
    // Without impersonation upstream would answer the shadow's admin identity with 200.
    await settle((c) => c.same === before.same + 1);
    expect((await counts()).different).to.equal(before.different);
  });

  it('writes and watches are not copied', async () => {
    const before = await counts();
    expect((await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', body: { metadata: { name: 'w' } } })).status).to.equal(201);
    const w = await call(`/api/v1/namespaces/${ns}/configmaps?watch=true&timeoutSeconds=1`);
    expect(w.status).to.equal(200);
    await new Promise((r) => setTimeout(r, 500));
    const after = await counts();
    expect(after.same + after.different + after.upstream_error).to.equal(before.same + before.different + before.upstream_error);
  });

  it('an upstream that does not answer counts as upstream_error; our answer is unaffected', async () => {
    await upstream.stopReplica(0);
    const before = await counts();
    expect((await call(`/api/v1/namespaces/${ns}/configmaps/plain`)).status).to.equal(200);
    await settle((c) => c.upstream_error >= before.upstream_error + 1);
  });
});
