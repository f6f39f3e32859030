// Every kind the server serves, through kubectl: `explain` of each one discovery lists
// (kubectl v1.28 reads OpenAPI v2, v1.34 reads v3), and for each kind upstream recorded a
// fixture of, the object created from that fixture and then shown by get and describe,
// labelled, annotated and deleted. The kinds come from discovery and the fixture folder,
// so a resource added later is covered without touching this file.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectl, kubectlVersions, request, startReplicas, type Cluster, type KubectlResult, type KubectlVersion } from '../harness/index.js';
import { surfaceDir } from '../harness/surface-fixtures.js';
import { beyondUpstreamGroups } from '../../pkg/registry/beyond-upstream.js';

interface APIResource { name: string; kind: string; namespaced: boolean; verbs: string[] }
interface Served { resource: string; kind: string; groupVersion: string; namespaced: boolean; verbs: string[] }

describe('e2e: kubectl explain, describe, label, annotate and delete for every kind', function () {
  this.timeout(600_000);
  let cluster: Cluster;
  let served: Served[] = [];
  const ns = 'fixtures';
  const k = (args: string[], version: KubectlVersion = '1.28', stdin?: string): Promise<KubectlResult> =>
    kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), version, stdin });
  const ok = async (args: string[], version: KubectlVersion = '1.28', stdin?: string): Promise<string> => {
    const r = await k(args, version, stdin);
    expect(r.code, `kubectl ${version} ${args.join(' ')}\n${r.stderr}`).to.equal(0);
    return r.stdout;
  };

  before(async () => {
    cluster = await startReplicas(1, { etcd: 'mutual-tls', extraArgs: ['--service-cluster-ip-range=10.96.0.0/16'] });
    const get = async <T>(path: string): Promise<T> => (await request<T>(`${cluster.urls[0]}${path}`, cluster.credentialsFor())).body;
    const versions = [{ groupVersion: 'v1', path: '/api/v1' }];
    for (const g of (await get<{ groups: Array<{ versions: Array<{ groupVersion: string }> }> }>('/apis')).groups) {
      for (const v of g.versions) versions.push({ groupVersion: v.groupVersion, path: `/apis/${v.groupVersion}` });
    }
    for (const { groupVersion, path } of versions) {
      for (const r of (await get<{ resources: APIResource[] }>(path)).resources) {
        if (!r.name.includes('/')) served.push({ resource: r.name, kind: r.kind, groupVersion, namespaced: r.namespaced, verbs: r.verbs });
      }
    }
    await ok(['create', 'namespace', ns]);
  });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    it(`kubectl ${version} explains every served kind with its group, kind and version`, async () => {
      expect(served.length).to.be.greaterThan(40);
      // Groups beyond upstream publish no OpenAPI schema yet: kubectl cannot explain them.
      for (const s of served.filter((x) => !beyondUpstreamGroups.has(x.groupVersion.split('/').slice(0, -1).join('/')))) {
        const [group, v] = s.groupVersion.includes('/') ? s.groupVersion.split('/') : ['', s.groupVersion];
        const out = await ok(['explain', s.resource, `--api-version=${s.groupVersion}`], version);
        const head = `${group ? `GROUP:\\s+${group.replace(/\./g, '\\.')}\\n` : ''}KIND:\\s+${s.kind}\\nVERSION:\\s+${v}\\n`;
        expect(out, `${s.groupVersion} ${s.resource}`).to.match(new RegExp(`^${head}`));
      }
    });
  }

  it('creates each fixture object, then gets, describes, labels, annotates and deletes it', async () => {
    const files = readdirSync(join(surfaceDir(), 'objects')).filter((f) => f.endsWith('.request.json'));
    // The namespace exists already; nodes and service accounts first, as others refer to them.
    const order = (f: string): number => (f.startsWith('v1.Node.') ? 0 : f.startsWith('v1.ServiceAccount.') ? 1 : 2);
    const described: string[] = [];
    for (const file of files.sort((a, b) => order(a) - order(b) || a.localeCompare(b))) {
      const obj = JSON.parse(readFileSync(join(surfaceDir(), 'objects', file), 'utf8')) as { apiVersion: string; kind: string; metadata: { name: string } };
      if (obj.kind === 'Namespace') continue;
      const s = served.find((x) => x.groupVersion === obj.apiVersion && x.kind === obj.kind);
      if (!s) continue; // a kind this server does not serve yet fails the explain test above
      const nsArgs = s.namespaced ? ['-n', ns] : [];
      const created = await k([...nsArgs, 'create', '-f', '-'], '1.28', JSON.stringify(obj));
      // Objects present from start (the `default` ServiceAccount) are used as they are.
      if (created.code !== 0) expect(created.stderr, file).to.match(/AlreadyExists|already exists/);
      const ref = `${s.resource}.${s.groupVersion.includes('/') ? s.groupVersion.split('/')[0] : ''}`.replace(/\.$/, '');
      const name = obj.metadata.name;
      expect((await ok([...nsArgs, 'get', ref, name, '-o', 'name'])).trim()).to.match(new RegExp(`/${name.replace(/\./g, '\\.')}$`));
      const description = await ok([...nsArgs, 'describe', ref, name]);
      expect(description, `describe ${ref}`).to.match(new RegExp(`^Name:\\s+${name.replace(/\./g, '\\.')}$`, 'm'));
      described.push(ref);
      if (!s.verbs.includes('patch')) continue;
      await ok([...nsArgs, 'label', ref, name, 'e2e=yes']);
      await ok([...nsArgs, 'annotate', ref, name, 'e2e/note=hello']);
      const shown = JSON.parse(await ok([...nsArgs, 'get', ref, name, '-o', 'json'])) as { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } };
      expect(shown.metadata.labels?.e2e, ref).to.equal('yes');
      expect(shown.metadata.annotations?.['e2e/note'], ref).to.equal('hello');
    }
    expect(described.length).to.be.greaterThan(35);
    // Deleted in reverse, so pods go before the node and service accounts they name.
    for (const file of files.reverse()) {
      const obj = JSON.parse(readFileSync(join(surfaceDir(), 'objects', file), 'utf8')) as { apiVersion: string; kind: string; metadata: { name: string } };
      const s = served.find((x) => x.groupVersion === obj.apiVersion && x.kind === obj.kind);
      if (!s || obj.kind === 'Namespace' || !s.verbs.includes('delete')) continue;
      const nsArgs = s.namespaced ? ['-n', ns] : [];
      const ref = `${s.resource}.${s.groupVersion.includes('/') ? s.groupVersion.split('/')[0] : ''}`.replace(/\.$/, '');
      const out = await ok([...nsArgs, 'delete', ref, obj.metadata.name, '--wait=false']);
      expect(out, ref).to.match(/deleted/);
    }
  });
});
