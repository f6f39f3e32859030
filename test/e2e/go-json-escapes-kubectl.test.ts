// kubectl v1.28 and v1.34 read answers written with Go's escapes (\u003c, \u003e, \u0026,
// \u2028, \u0008): a ConfigMap's annotation and data, a custom resource's field and key
// (JSON for both versions; stored as JSON, with the escapes, as upstream stores it), and
// a Pod table's <none> cells.
import { expect } from 'chai';
import { kubectl, kubectlVersions, startReplicas, until, type Cluster } from '../harness/index.js';

const value = 'a<b>&c\u2028d\bz';
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'notes.escapes.example.com' },
  spec: {
    group: 'escapes.example.com', scope: 'Namespaced', names: { plural: 'notes', singular: 'note', kind: 'Note' },
    versions: [{ name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
  },
};

describe('e2e kubectl: values with characters Go\'s encoder escapes', function () {
  this.timeout(180_000);
  let cluster: Cluster;

  before(async () => {
    cluster = await startReplicas(1, { etcd: 'mutual-tls' });
    const r = await kubectl(['create', '-f', '-'], { kubeconfig: cluster.kubeconfigFor(0), stdin: JSON.stringify(crd) });
    expect(r.code, r.stderr).to.equal(0);
    await until('notes served', async () => (await kubectl(['get', 'notes', '-A'], { kubeconfig: cluster.kubeconfigFor(0) })).code === 0, 20_000, 200);
  });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    it(`kubectl ${version} gets them back as written`, async () => {
      const ns = `esc-${version.replace('.', '')}`;
      const ok = async (args: string[], stdin?: string) => {
        const r = await kubectl([...args, '-n', ns], { kubeconfig: cluster.kubeconfigFor(0), version, stdin });
        expect(r.code, `kubectl ${version} ${args.join(' ')}\n${r.stderr}`).to.equal(0);
        return r.stdout;
      };
      expect((await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0), version })).code).to.equal(0);
      await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', annotations: { note: value } }, data: { k: value } }));
      expect(await ok(['get', 'configmap', 'cm', '-o', 'jsonpath={.metadata.annotations.note}|{.data.k}'])).to.equal(`${value}|${value}`);
      const listed = JSON.parse(await ok(['get', 'configmaps', '-o', 'json'])) as { items: Array<{ data: Record<string, string> }> };
      expect(listed.items.map((i) => i.data.k)).to.include(value);

      await ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'escapes.example.com/v1', kind: 'Note', metadata: { name: 'n' }, spec: { text: value, [`<${version}>&`]: value } }));
      const note = JSON.parse(await ok(['get', 'note', 'n', '-o', 'json'])) as { spec: Record<string, string> };
      expect(note.spec).to.deep.equal({ text: value, [`<${version}>&`]: value });
      const stored = await cluster.etcdClient().get(`${cluster.etcdPrefix}/escapes.example.com/notes/${ns}/n`).string();
      expect(stored).to.include(`"\\u003c${version}\\u003e\\u0026":"a\\u003cb\\u003e\\u0026c\\u2028d\\u0008z"`);
      expect(stored!.endsWith('}\n')).to.equal(true);

      await ok(['run', 'p', '--image=busybox', '--restart=Never']);
      const wide = await ok(['get', 'pods', '-o', 'wide']);
      expect(wide.split('\n')[1]).to.match(/^p\s+0\/1\s+Pending\s+0\s+\S+\s+<none>\s+<none>\s+<none>\s+<none>\s*$/);
    });
  }
});
