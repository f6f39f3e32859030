// kubectl v1.28 and v1.34 read built-in lists whose items carry no apiVersion or kind (as
// upstream v1.28 answers them) as before: kubectl sets each item's from the list's kind when
// it decodes the list (unstructured's decodeToList), so `get -o json` and `-o yaml` print
// every item with both (a List of sorted keys, as upstream's kubectl prints), `-o name` and
// the table are unchanged, and `get --raw` shows the server's bytes: items without them.
// A small list (encoded in one go) and one of 120 (encoded a batch at a time).
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { kubectl, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

type Json = Record<string, unknown>;
interface List { apiVersion: string; kind: string; metadata: Json; items: Json[] }

const configMaps = (count: number) => ({
  apiVersion: 'v1', kind: 'List',
  items: Array.from({ length: count }, (_, i) => ({
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(3, '0')}` }, data: { k: `v${i}` },
  })),
});

describe('e2e kubectl: lists whose items carry no apiVersion/kind', function () {
  this.timeout(300_000);
  let cluster: Cluster;

  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--controllers=*,-root-ca-cert-publisher'] });
  });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    for (const count of [2, 120]) {
      it(`kubectl ${version}, ${count} ConfigMaps: get -o json, -o yaml, -o name, the table and --raw`, async () => {
        const ns = `li-${version.replace('.', '')}-${count}`;
        const ok = async (args: string[], stdin?: string) => {
          const r = await kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), version, stdin });
          expect(r.code, `kubectl ${version} ${args.join(' ')}\n${r.stderr}`).to.equal(0);
          return r.stdout;
        };
        await ok(['create', 'namespace', ns]);
        await ok(['create', '-n', ns, '-f', '-'], JSON.stringify(configMaps(count)));
        const names = Array.from({ length: count }, (_, i) => `cm-${String(i).padStart(3, '0')}`);

        for (const out of ['json', 'yaml']) {
          const text = await ok(['get', 'configmaps', '-n', ns, '-o', out]);
          const l = (out === 'json' ? JSON.parse(text) : parseYaml(text)) as List;
          expect([l.apiVersion, l.kind], out).to.deep.equal(['v1', 'List']);
          expect(l.items.map((i) => (i.metadata as Json).name), out).to.deep.equal(names);
          for (const item of l.items) {
            expect(Object.keys(item), out).to.deep.equal(['apiVersion', 'data', 'kind', 'metadata']);
            expect([item.apiVersion, item.kind], out).to.deep.equal(['v1', 'ConfigMap']);
          }
        }
        expect((await ok(['get', 'configmaps', '-n', ns, '-o', 'name'])).trim().split('\n')).to.deep.equal(names.map((n) => `configmap/${n}`));
        const table = (await ok(['get', 'configmaps', '-n', ns])).trim().split('\n');
        expect(table[0]).to.match(/^NAME\s+DATA\s+AGE$/);
        expect(table.slice(1).map((row) => row.split(/\s+/).slice(0, 2))).to.deep.equal(names.map((n) => [n, '1']));

        const raw = JSON.parse(await ok(['get', '--raw', `/api/v1/namespaces/${ns}/configmaps`])) as List;
        expect([raw.apiVersion, raw.kind]).to.deep.equal(['v1', 'ConfigMapList']);
        expect(raw.items).to.have.length(count);
        for (const item of raw.items) expect(Object.keys(item)).to.deep.equal(['metadata', 'data']);
      });
    }
  }
});
