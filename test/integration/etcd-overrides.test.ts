// --etcd-servers-overrides=/events#<second etcd>: Events live on their own etcd cluster
// (with their own watch cache and health checks), everything else stays on the main one;
// list and watch of Events work through it. Also the etcd client metrics by upstream's
// names, and --storage-backend's start-up error.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import type { Etcd3 } from 'etcd3';
import { request, serverNodeArgs, startReplicas, startTestEtcd, testEtcdClient, testEtcdEndpoint, until, watch, type Cluster, type TestEtcd } from '../harness/index.js';
import { memberClient } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';


async function keysUnder(client: Etcd3, prefix: string): Promise<string[]> {
  return Object.keys(await client.getAll().prefix(prefix).strings()).sort();
}

describe('--etcd-servers-overrides: Events on their own etcd', function () {
  this.timeout(120_000);
  let second: TestEtcd;
  let cluster: Cluster;
  let mainClient: Etcd3;
  let eventsClient: Etcd3;

  before(async () => {
    second = await startTestEtcd();
    cluster = await startReplicas(1, { extraArgs: [`--etcd-servers-overrides=/events#${second.endpoint}`, '--etcd-db-metric-poll-interval=1s'] });
    mainClient = await testEtcdClient();
    eventsClient = memberClient([second.endpoint], {}, 5000);
  });
  after(async () => {
    mainClient?.close();
    eventsClient?.close();
    await cluster?.stop();
    await second?.stop();
  });

  const api = (path: string) => `${cluster.urls[0]}${path}`;

  it('writes Events there and nothing else; list and watch of Events work', async () => {
    const creds = cluster.credentialsFor();
    const w = await watch<{ metadata: { name: string } }>(api('/api/v1/namespaces/default/events?watch=1'), creds);
    try {
      const ev = await request<{ metadata: { resourceVersion: string } }>(api('/api/v1/namespaces/default/events'), { ...creds, method: 'POST', body: {
        metadata: { name: 'on-second' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, reason: 'Test', message: 'hello', type: 'Normal',
      } });
      expect(ev.status).to.equal(201);
      const cm = await request(api('/api/v1/namespaces/default/configmaps'), { ...creds, method: 'POST', body: { metadata: { name: 'on-main' } } });
      expect(cm.status).to.equal(201);
      const seen = await w.next(10_000);
      expect(seen.type).to.equal('ADDED');
      expect(seen.object.metadata.name).to.equal('on-second');
      // events.k8s.io shares the core Events' storage, so it reads them too.
      const list = await request<{ items: Array<{ metadata: { name: string } }> }>(api('/apis/events.k8s.io/v1/namespaces/default/events'), creds);
      expect(list.status).to.equal(200);
      expect(list.body.items.map((i) => i.metadata.name)).to.include('on-second');

      const onSecond = await keysUnder(eventsClient, `${cluster.etcdPrefix}/`);
      expect(onSecond.length).to.be.greaterThan(0);
      expect(onSecond.filter((k) => !k.startsWith(`${cluster.etcdPrefix}/events/`)), 'only Events on the second etcd').to.deep.equal([]);
      expect(onSecond).to.include(`${cluster.etcdPrefix}/events/default/on-second`);
      // The revision is the second etcd's, where the Event lives.
      const kv = await eventsClient.get(`${cluster.etcdPrefix}/events/default/on-second`).exec();
      expect(kv.kvs[0]!.mod_revision).to.equal(ev.body.metadata.resourceVersion);
      const onMain = await keysUnder(mainClient, `${cluster.etcdPrefix}/`);
      expect(onMain.filter((k) => k.startsWith(`${cluster.etcdPrefix}/events/`)), 'no Events on the main etcd').to.deep.equal([]);
      expect(onMain).to.include(`${cluster.etcdPrefix}/configmaps/default/on-main`);
    } finally {
      w.close();
    }
  });

  it('checks the override cluster\'s health apart', async () => {
    const r = await request(api('/readyz?verbose'), cluster.credentialsFor());
    expect(r.status).to.equal(200);
    expect(r.text).to.include('[+]etcd ok\n').and.include('[+]etcd-readiness ok\n')
      .and.include('[+]etcd-override-0 ok\n').and.include('[+]etcd-override-readiness-0 ok\n');
  });

  it('reports the etcd client metrics with upstream\'s names and labels, the database size per endpoint', async () => {
    const main = await testEtcdEndpoint();
    const text = await until('both database sizes', async () => {
      const r = await request(api('/metrics'), cluster.credentialsFor());
      return r.text.includes(`apiserver_storage_db_total_size_in_bytes{endpoint="${second.endpoint}"}`)
        && r.text.includes(`apiserver_storage_db_total_size_in_bytes{endpoint="${main}"}`) ? r.text : undefined;
    }, 20_000, 500);
    expect(text).to.match(/^etcd_requests_total\{operation="create",type="\*core\.Event"\} [1-9]/m);
    expect(text).to.match(/^etcd_requests_total\{operation="create",type="\*core\.ConfigMap"\} [1-9]/m);
    expect(text).to.include('# HELP etcd_requests_total [ALPHA] Etcd request counts for each operation and object type.');
    expect(text).to.include('# TYPE etcd_request_errors_total counter');
    // Which kinds the start-up reads one by one changes (the bootstrap lists now); some get does.
    expect(text).to.match(/^etcd_request_duration_seconds_bucket\{le="0\.005",operation="get",type="\*[a-z]+\.[A-Za-z]+"\}/m);
    expect(text).to.match(new RegExp(`^apiserver_storage_db_total_size_in_bytes\\{endpoint="${second.endpoint.replace(/[.:/]/g, '\\$&')}"\\} [1-9]`, 'm'));
    expect(text).to.include('# HELP apiserver_storage_db_total_size_in_bytes [ALPHA] (Deprecated since 1.28.0) Total size of the storage database file physically allocated in bytes.');
    // 1.28's replacement: one sample per etcd cluster (the main one, then the override), read at the scrape.
    expect(text).to.include('# HELP apiserver_storage_size_bytes [ALPHA] Size of the storage database file physically allocated in bytes.');
    expect(text).to.match(/^apiserver_storage_size_bytes\{storage_cluster_id="etcd-0"\} [1-9]/m);
    expect(text).to.match(/^apiserver_storage_size_bytes\{storage_cluster_id="etcd-1"\} [1-9]/m);
  });
});

describe('--storage-backend', () => {
  it('anything but etcd3 is upstream\'s start-up error', () => {
    let out = '';
    try {
      execFileSync(process.execPath, serverNodeArgs(['--storage-backend=etcd2']), { stdio: 'pipe' });
    } catch (e) {
      out = String((e as { stderr: Buffer }).stderr);
    }
    expect(out).to.include('--storage-backend invalid, allowed values: etcd3. If not specified, it will default to \'etcd3\'');
  });
});
