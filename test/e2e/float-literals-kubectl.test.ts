// kubectl v1.28 and v1.34 sending a Deployment whose replicas is written `3.0`: with
// `create --raw` the body goes as written and upstream's typed decoder refuses it (400,
// shown as "Error from server (BadRequest)"); `create -f` decodes the file itself and
// sends 3, which is taken. A merge patch of /scale with 2.5 is refused as the patchers'
// 422 on "patch" (kubectl patch sends a merge patch's numbers as written). Nulls from YAML
// where a decode into the Go type leaves a zero value (`~` in a list of strings, a map's
// value) are stored as "" and printed so; we answered a 500 for the list's null.
import { expect } from 'chai';
import { kubectl, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl sending values upstream\'s typed decoder reads its own way', function () {
  this.timeout(120_000);
  let cluster: Cluster;

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    it(`kubectl ${version}: create --raw is refused naming the field, create -f is taken`, async () => {
      const ns = `ef-${version.replace('.', '')}-${Date.now().toString(36)}`;
      const run = (args: string[], stdin?: string) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), stdin, version });
      expect((await run(['create', 'namespace', ns])).code).to.equal(0);
      const body = JSON.stringify({
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: ns },
        spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } },
      }).replace('"replicas":3', '"replicas":3.0');
      const raw = await run(['create', '--raw', `/apis/apps/v1/namespaces/${ns}/deployments`, '-f', '-'], body);
      expect(raw.code, raw.stdout).to.not.equal(0);
      expect(raw.stderr).to.include('Error from server (BadRequest): Deployment in version "v1" cannot be handled as a Deployment: '
        + 'json: cannot unmarshal number 3.0 into Go struct field DeploymentSpec.spec.replicas of type int32');
      const file = await run(['create', '-f', '-', '-o', 'jsonpath={.spec.replicas}'], body);
      expect(file.code, file.stderr).to.equal(0);
      expect(file.stdout).to.equal('3');
      // A merge patch of the scale subresource goes as written: the Scale's decode refuses it.
      const scaled = await run(['patch', 'deployment', 'web', '-n', ns, '--subresource=scale', '--type=merge', '-p', '{"spec":{"replicas":2.5}}']);
      expect(scaled.code, scaled.stdout).to.not.equal(0);
      expect(scaled.stderr).to.include('The request is invalid: patch: Invalid value: "{\\"apiVersion\\":\\"autoscaling/v1\\",\\"kind\\":\\"Scale\\"');
      expect(scaled.stderr).to.include('json: cannot unmarshal number 2.5 into Go struct field ScaleSpec.spec.replicas of type int32');
    });

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
