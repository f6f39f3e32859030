// kubectl v1.28 and v1.34 `patch --type=json`: a failing test is upstream's opaque 422,
// which kubectl prints with the server's message (its details name no kind and no cause).
// kubectl re-encodes the patch as Go does before sending it, so a test of a string with
// `<` matches the stored one. A strategic patch past int64 into an int64 field is
// int64's min after the patcher's conversion: the Job's validation names it.
import { expect } from 'chai';
import { kubectl, kubectlVersions, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl patch --type=json failures and numbers past int64', function () {
  this.timeout(120_000);
  let cluster: Cluster;

  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  for (const version of kubectlVersions) {
    it(`kubectl ${version}: the opaque 422 of a failing test, a test of an escaped string, int64's min`, async () => {
      const ns = `jpk-${version.replace('.', '')}-${Date.now().toString(36)}`;
      const run = (args: string[]) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(0), version });
      expect((await run(['create', 'namespace', ns])).code).to.equal(0);
      expect((await run(['create', 'configmap', 'cm', '-n', ns, '--from-literal=k=v', '--from-literal=html=a<b'])).code).to.equal(0);
      const failed = await run(['patch', 'configmap', 'cm', '-n', ns, '--type=json', '-p', '[{"op":"test","path":"/data/k","value":"other"}]']);
      expect(failed.code, failed.stdout).to.not.equal(0);
      expect(failed.stderr.trim()).to.equal('The request is invalid: the server rejected our request due to an error in our request');
      const html = await run(['patch', 'configmap', 'cm', '-n', ns, '--type=json', '-p',
        '[{"op":"test","path":"/data/html","value":"a<b"},{"op":"replace","path":"/data/k","value":"w"}]']);
      expect(html.code, html.stderr).to.equal(0);
      const k = await run(['get', 'configmap', 'cm', '-n', ns, '-o', 'jsonpath={.data.k}']);
      expect(k.stdout).to.equal('w');

      expect((await run(['create', 'job', 'j', '-n', ns, '--image=x'])).code).to.equal(0);
      const past = await run(['patch', 'job', 'j', '-n', ns, '-p', '{"spec":{"activeDeadlineSeconds":9223372036854775808}}']);
      expect(past.code, past.stdout).to.not.equal(0);
      expect(past.stderr.trim()).to.equal('The Job "j" is invalid: spec.activeDeadlineSeconds: Invalid value: -9223372036854775808: must be greater than or equal to 0');
    });
  }
});
