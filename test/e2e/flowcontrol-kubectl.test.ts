// kubectl v1.28 against API Priority and Fairness objects and componentstatuses:
// `get flowschemas` and `get prioritylevelconfigurations` print the bootstrap
// configuration in upstream's columns (schemas in matching order), both API versions
// read the same object, and `get cs` prints the components with the deprecation warning.
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster, type KubectlResult } from '../harness/index.js';

const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

describe('e2e: kubectl, flowcontrol and componentstatuses', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const k = (args: string[], stdin?: string, replica = 0): Promise<KubectlResult> =>
    kubectl(args, { kubeconfig: cluster.kubeconfigFor(replica), stdin });
  const ok = async (args: string[], stdin?: string, replica = 0): Promise<KubectlResult> => {
    const r = await k(args, stdin, replica);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
    return r;
  };

  before(async () => {
    cluster = await startReplicas(2);
    // The leader writes the configuration shortly after start, then the Dangling conditions.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const r = await k(['get', 'flowschemas', '--no-headers']);
      const got = r.code === 0 ? rows(r.stdout) : [];
      if (got.length === 13 && got.every((c) => c[5] === 'False')) break;
      if (Date.now() > deadline) throw new Error(`bootstrap flow schemas did not appear: ${r.stdout}${r.stderr}`);
      await new Promise((res) => setTimeout(res, 300));
    }
  });
  after(async () => { await cluster?.stop(); });

  it('kubectl get flowschemas lists the bootstrap schemas in matching order', async () => {
    const out = rows((await ok(['get', 'flowschemas'], undefined, 1)).stdout);
    expect(out[0]).to.deep.equal(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    expect(out.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[5]])).to.deep.equal([
      ['exempt', 'exempt', '1', '<none>', 'False'],
      ['probes', 'exempt', '2', '<none>', 'False'],
      ['system-leader-election', 'leader-election', '100', 'ByUser', 'False'],
      ['endpoint-controller', 'workload-high', '150', 'ByUser', 'False'],
      ['workload-leader-election', 'leader-election', '200', 'ByUser', 'False'],
      ['system-node-high', 'node-high', '400', 'ByUser', 'False'],
      ['system-nodes', 'system', '500', 'ByUser', 'False'],
      ['kube-controller-manager', 'workload-high', '800', 'ByNamespace', 'False'],
      ['kube-scheduler', 'workload-high', '800', 'ByNamespace', 'False'],
      ['kube-system-service-accounts', 'workload-high', '900', 'ByNamespace', 'False'],
      ['service-accounts', 'workload-low', '9000', 'ByUser', 'False'],
      ['global-default', 'global-default', '9900', 'ByUser', 'False'],
      ['catch-all', 'catch-all', '10000', 'ByUser', 'False'],
    ]);
  });

  it('kubectl get prioritylevelconfigurations prints shares and queuing', async () => {
    const out = rows((await ok(['get', 'prioritylevelconfigurations'])).stdout);
    expect(out[0]).to.deep.equal(['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
    expect(out.slice(1).map((r) => r.slice(0, 6))).to.deep.equal([
      ['catch-all', 'Limited', '5', '<none>', '<none>', '<none>'],
      ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'],
      ['global-default', 'Limited', '20', '128', '6', '50'],
      ['leader-election', 'Limited', '10', '16', '4', '50'],
      ['node-high', 'Limited', '40', '64', '6', '50'],
      ['system', 'Limited', '30', '64', '6', '50'],
      ['workload-high', 'Limited', '40', '128', '6', '50'],
      ['workload-low', 'Limited', '100', '128', '6', '50'],
    ]);
  });

  it('reads one object through v1beta3 and v1beta2', async () => {
    const manifest = JSON.stringify({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'PriorityLevelConfiguration',
      metadata: { name: 'e2e-pl' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 9, limitResponse: { type: 'Reject' } } } });
    const applied = await ok(['apply', '-f', '-'], manifest);
    expect(applied.stdout).to.equal('prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/e2e-pl created\n');
    expect(applied.stderr).to.include('Warning: flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration\n');
    const v3 = JSON.parse((await ok(['get', 'prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.k8s.io', 'e2e-pl', '-o', 'json'], undefined, 1)).stdout);
    expect(v3.apiVersion).to.equal('flowcontrol.apiserver.k8s.io/v1beta3');
    expect(v3.spec.limited.nominalConcurrencyShares).to.equal(9);
    const v2 = JSON.parse((await ok(['get', 'prioritylevelconfigurations.v1beta2.flowcontrol.apiserver.k8s.io', 'e2e-pl', '-o', 'json'])).stdout);
    expect(v2.spec.limited.assuredConcurrencyShares).to.equal(9);
    expect(v2.metadata.uid).to.equal(v3.metadata.uid);
    const bad = await k(['patch', 'prioritylevelconfiguration', 'catch-all', '--type=merge', '-p', '{"spec":{"limited":{"nominalConcurrencyShares":6}}}']);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.include('The PriorityLevelConfiguration "catch-all" is invalid: spec: Invalid value: ');
    expect(bad.stderr).to.include("spec of 'catch-all' must equal the fixed value");
  });

  it('kubectl get cs prints the components and upstream\'s deprecation warning', async () => {
    const r = await ok(['get', 'cs']);
    expect(r.stderr).to.equal('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
    const out = rows(r.stdout);
    expect(out[0]).to.deep.equal(['NAME', 'STATUS', 'MESSAGE', 'ERROR']);
    expect(out.slice(1).sort((a, b) => a[0]!.localeCompare(b[0]!))).to.deep.equal([
      ['controller-manager', 'Unhealthy', 'Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused'],
      ['etcd-0', 'Healthy', 'ok'],
      ['scheduler', 'Unhealthy', 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused'],
    ]);
    const one = await ok(['get', 'componentstatus', 'etcd-0', '-o', 'jsonpath={.conditions[0].type}={.conditions[0].status}']);
    expect(one.stdout).to.equal('Healthy=True');
  });
});
