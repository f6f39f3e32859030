// kubectl v1.28 and v1.34 `patch` (a strategic merge patch by default) giving replicas a
// string: upstream's patcher cannot convert the patched map into the Deployment and
// answers 422 Invalid on "patch" with the converter's words, which kubectl prints.
import { expect } from 'chai';
import { kubectl, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl patch with a value of the wrong type', function () {
  this.timeout(120_000);
  let cluster: Cluster;

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    it(`kubectl ${version}: the converter's message for the patch, the object unchanged`, async () => {
      const ns = `esp-${version.replace('.', '')}-${Date.now().toString(36)}`;
      const run = (args: string[]) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), version });
      expect((await run(['create', 'namespace', ns])).code).to.equal(0);
      expect((await run(['create', 'deployment', 'web', '--image=nginx', '-n', ns])).code).to.equal(0);
      const res = await run(['patch', 'deployment', 'web', '-n', ns, '-p', '{"spec":{"replicas":"3"}}']);
      expect(res.code, res.stdout).to.not.equal(0);
      expect(res.stderr).to.include('patch: Invalid value: "map[spec:map[replicas:3]]": unrecognized type: int32');
      const replicas = await run(['get', 'deployment', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}']);
      expect(replicas.stdout).to.equal('1');
    });
  }
});
