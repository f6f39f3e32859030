// kubectl v1.28 with quotas: `kubectl create quota`, the refusal kubectl prints when a
// create would exceed it, and `kubectl describe quota` showing used against hard.
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl create/describe quota', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `e2e-quota-${Date.now().toString(36)}`;
  const k = (args: string[], replica = 0) => kubectl([...args, '-n', ns], { kubeconfig: cluster.kubeconfigFor(replica) });

  before(async () => {
    cluster = await startReplicas(2);
  });
  after(async () => { await cluster?.stop(); });

  const eventually = async (fn: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!(await fn())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };

  it('creates a quota, is refused past it, and describes usage', async () => {
    expect((await kubectl(['create', 'namespace', ns], { kubeconfig: cluster.kubeconfigFor(0) })).code).to.equal(0);
    const created = await k(['create', 'quota', 'limits', '--hard=count/secrets=1,pods=3,requests.cpu=1']);
    expect(created.code, created.stderr).to.equal(0);
    expect(created.stdout.trim()).to.equal('resourcequota/limits created');
    await eventually(async () => (await k(['get', 'quota', 'limits', '-o', 'jsonpath={.status.used.pods}'])).stdout === '0', 'quota status');

    expect((await k(['create', 'secret', 'generic', 'one', '--from-literal=a=b'])).code).to.equal(0);
    const refused = await k(['create', 'secret', 'generic', 'two', '--from-literal=a=b'], 1);
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr.trim()).to.equal('error: failed to create secret secrets "two" is forbidden: exceeded quota: limits, requested: count/secrets=1, used: count/secrets=1, limited: count/secrets=1');

    const run = await k(['run', 'nocpu', '--image=busybox']);
    expect(run.code).to.not.equal(0);
    expect(run.stderr.trim()).to.equal('Error from server (Forbidden): pods "nocpu" is forbidden: failed quota: limits: must specify requests.cpu for: nocpu');

    const described = await k(['describe', 'quota', 'limits'], 1);
    expect(described.code, described.stderr).to.equal(0);
    const lines = described.stdout.trimEnd().split('\n').map((l) => l.trimEnd());
    expect(lines[0]).to.match(/^Name:\s+limits$/);
    expect(lines[1]).to.match(new RegExp(`^Namespace:\\s+${ns}$`));
    expect(lines.slice(2).map((l) => l.split(/\s+/))).to.deep.equal([
      ['Resource', 'Used', 'Hard'],
      ['--------', '----', '----'],
      ['count/secrets', '1', '1'],
      ['pods', '0', '3'],
      ['requests.cpu', '0', '1'],
    ]);
  });
});
