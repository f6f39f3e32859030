// kubectl v1.28 and v1.34 creating objects from YAML with nulls where a decode into the Go
// type leaves a zero value (`~` in a list of strings, a map's value): upstream stores ""
// and kubectl prints it; we answered a 500 for the list's null.
import { expect } from 'chai';
import { kubectl, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl creating objects with nulls that decode to zero values', function () {
  this.timeout(120_000);
  let cluster: Cluster;

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    it(`kubectl ${version}: a null list item and a null map value are stored as ""`, async () => {
      const ns = `en-${version.replace('.', '')}-${Date.now().toString(36)}`;
      const run = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin, version });
      expect((await run(['create', 'namespace', ns])).code).to.equal(0);
      const pod = ['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: p', `  namespace: ${ns}`, 'spec:', '  containers:',
        '  - name: c', '    image: nginx', '    command: ["sh", ~]', ''].join('\n');
      const created = await run(['create', '-f', '-', '-o', 'jsonpath={.spec.containers[0].command}'], pod);
      expect(created.code, created.stderr).to.equal(0);
      expect(JSON.parse(created.stdout)).to.deep.equal(['sh', '']);
      const cm = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: c', `  namespace: ${ns}`, 'data:', '  k: ~', ''].join('\n');
      expect((await run(['create', '-f', '-'], cm)).code).to.equal(0);
      const data = await run(['get', 'configmap', 'c', '-n', ns, '-o', 'json']);
      expect(JSON.parse(data.stdout).data).to.deep.equal({ k: '' });
    });
  }
});
