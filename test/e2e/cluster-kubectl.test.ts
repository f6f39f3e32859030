// kubectl v1.28 against the cluster-infrastructure kinds: create from a file and with the
// create subcommands, get -o wide, label/annotate/cordon/delete, and explain.
import { expect } from 'chai';
import { kubectl, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl and the cluster resources', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const k = (args: string[], stdin?: string, replica = 0) => kubectl(args, { kubeconfig: cluster.kubeconfigFor(replica), stdin });
  const ok = async (args: string[], stdin?: string): Promise<string> => {
    const r = await k(args, stdin);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
    return r.stdout;
  };

  before(async () => { cluster = await startReplicas(2); });
  after(async () => { await cluster?.stop(); });

  it('creates a node from a file and shows it wide, labelled, cordoned and deleted', async () => {
    const node = JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1', labels: { 'node-role.kubernetes.io/worker': '' } },
      status: { addresses: [{ type: 'InternalIP', address: '10.0.0.7' }], nodeInfo: { kubeletVersion: 'v1.28.0', osImage: 'Debian 12', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0' } } });
    expect(await ok(['create', '-f', '-'], node)).to.equal('node/worker-1 created\n');
    const wide = (await ok(['get', 'nodes', '-o', 'wide'])).split('\n');
    expect(wide[0].split(/\s+/)).to.deep.equal(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME']);
    expect(wide[1]).to.match(/^worker-1\s+Unknown\s+worker\s+\S+\s+v1\.28\.0\s+10\.0\.0\.7\s+<none>\s+Debian 12\s+6\.1\.0\s+containerd:\/\/1\.7\.0$/);
    expect(await ok(['label', 'node', 'worker-1', 'zone=a'])).to.equal('node/worker-1 labeled\n');
    expect(await ok(['annotate', 'node', 'worker-1', 'note=x'])).to.equal('node/worker-1 annotated\n');
    expect(await ok(['cordon', 'worker-1'])).to.equal('node/worker-1 cordoned\n');
    expect(await ok(['get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name'])).to.equal('node/worker-1\n');
    // kubectl describe node lists the node's pods: it needs core/v1 pods, served on another branch.
    expect(await ok(['delete', 'node', 'worker-1'])).to.equal('node "worker-1" deleted\n');
  });

  it('kubectl create priorityclass, quota and ingress', async () => {
    expect(await ok(['create', 'priorityclass', 'high', '--value=1000', '--description=important'])).to.equal('priorityclass.scheduling.k8s.io/high created\n');
    const pcs = (await ok(['get', 'priorityclasses'])).split('\n');
    expect(pcs[0].split(/\s+/)).to.deep.equal(['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE']);
    expect(pcs.slice(1, 4).map((l) => l.split(/\s+/).slice(0, 3))).to.deep.equal([
      ['high', '1000', 'false'], ['system-cluster-critical', '2000000000', 'false'], ['system-node-critical', '2000001000', 'false']]);
    const refused = await k(['delete', 'priorityclass', 'system-node-critical']);
    expect(refused.stderr.trim()).to.equal('Error from server (Forbidden): priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted');
    const tooHigh = await k(['create', 'priorityclass', 'huge', '--value=2000000000']);
    expect(tooHigh.stderr.trim()).to.equal('error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000');

    expect(await ok(['create', 'quota', 'q', '--hard=pods=10,requests.cpu=1,limits.cpu=2', '-n', 'default'])).to.equal('resourcequota/q created\n');
    expect((await ok(['get', 'quota', '-n', 'default'])).split('\n')[0].split(/\s+/)).to.deep.equal(['NAME', 'AGE', 'REQUEST', 'LIMIT']);

    expect(await ok(['create', 'ingress', 'web', '--class=nginx', '--rule=a.example.com/=svc:80', '-n', 'default'])).to.equal('ingress.networking.k8s.io/web created\n');
    const ing = (await ok(['get', 'ingress', '-n', 'default'])).split('\n');
    expect(ing[0].split(/\s+/)).to.deep.equal(['NAME', 'CLASS', 'HOSTS', 'ADDRESS', 'PORTS', 'AGE']);
    expect(ing[1]).to.match(/^web\s+nginx\s+a\.example\.com\s+80\s+\S+$/);
    expect(await ok(['delete', 'ingress', 'web', '-n', 'default'])).to.equal('ingress.networking.k8s.io "web" deleted\n');
  });

  it('kubectl explain knows every kind', async () => {
    for (const [resource, kind, version] of [
      ['nodes', 'Node', 'v1'], ['persistentvolumes', 'PersistentVolume', 'v1'], ['persistentvolumeclaims', 'PersistentVolumeClaim', 'v1'],
      ['limitranges', 'LimitRange', 'v1'], ['resourcequotas', 'ResourceQuota', 'v1'], ['priorityclasses', 'PriorityClass', 'scheduling.k8s.io/v1'],
      ['runtimeclasses', 'RuntimeClass', 'node.k8s.io/v1'], ['storageclasses', 'StorageClass', 'storage.k8s.io/v1'], ['csidrivers', 'CSIDriver', 'storage.k8s.io/v1'],
      ['csinodes', 'CSINode', 'storage.k8s.io/v1'], ['csistoragecapacities', 'CSIStorageCapacity', 'storage.k8s.io/v1'],
      ['volumeattachments', 'VolumeAttachment', 'storage.k8s.io/v1'], ['ingresses', 'Ingress', 'networking.k8s.io/v1'],
      ['ingressclasses', 'IngressClass', 'networking.k8s.io/v1'], ['networkpolicies', 'NetworkPolicy', 'networking.k8s.io/v1'],
      ['horizontalpodautoscalers', 'HorizontalPodAutoscaler', 'autoscaling/v2'],
    ]) {
      const out = await ok(['explain', resource]);
      const [group, v] = version.includes('/') ? version.split('/') : ['', version];
      const head = `${group ? `GROUP:\\s+${group.replace(/\./g, '\\.')}\\n` : ''}KIND:\\s+${kind}\\nVERSION:\\s+${v}\\n`;
      expect(out, resource).to.match(new RegExp(`^${head}`));
    }
  });
});
