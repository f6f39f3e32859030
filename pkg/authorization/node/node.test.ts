import { expect } from 'chai';
import type { Attributes } from '../interfaces.js';
import { nodeRules } from '../../bootstrappolicy/index.js';
import { NodeAuthorizer } from './index.js';

const node1 = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const a = (o: Partial<Attributes>): Attributes => ({ user: node1, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns',
  apiGroup: '', apiVersion: 'v1', resource: 'secrets', subresource: '', name: '', ...o });

describe('Node authorizer', () => {
  const authz = new NodeAuthorizer(nodeRules);
  authz.graph.upsertPod({ metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1', serviceAccountName: 'sa',
    volumes: [{ name: 'v', secret: { secretName: 's1' } }, { name: 'c', persistentVolumeClaim: { claimName: 'claim' } }],
    containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cm1' } }] }] } });
  authz.graph.upsertClaim({ metadata: { name: 'claim', namespace: 'ns' }, spec: { volumeName: 'pv1' } });

  it('has no opinion on users that are not nodes', async () => {
    expect((await authz.authorize(a({ user: { name: 'alice', groups: [] }, name: 's1' }))).decision).to.equal('noOpinion');
  });

  it('lets a node read what its pods reference, and nothing else', async () => {
    expect((await authz.authorize(a({ name: 's1' }))).decision).to.equal('allow');
    expect((await authz.authorize(a({ resource: 'configmaps', name: 'cm1', verb: 'watch' }))).decision).to.equal('allow');
    expect((await authz.authorize(a({ resource: 'persistentvolumeclaims', name: 'claim' }))).decision).to.equal('allow');
    expect((await authz.authorize(a({ resource: 'persistentvolumes', namespace: '', name: 'pv1' }))).decision).to.equal('allow');
    expect(await authz.authorize(a({ name: 's2' }))).to.deep.equal({ decision: 'noOpinion', reason: "no relationship found between node 'n1' and this object" });
    expect(await authz.authorize(a({ name: 's1', user: { name: 'system:node:n2', groups: ['system:nodes'] } })))
      .to.deep.equal({ decision: 'noOpinion', reason: "no relationship found between node 'n2' and this object" });
    expect((await authz.authorize(a({ verb: 'update', name: 's1' }))).reason).to.equal('can only read resources of this type');
    expect((await authz.authorize(a({ verb: 'list' }))).reason).to.equal('No Object name found');
  });

  it('creates tokens only for service accounts of its pods', async () => {
    expect((await authz.authorize(a({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: 'sa' }))).decision).to.equal('allow');
    expect((await authz.authorize(a({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: 'other' }))).decision).to.equal('noOpinion');
  });

  it('writes only its own lease in kube-node-lease', async () => {
    const lease = (o: Partial<Attributes>) => a({ apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', ...o });
    expect((await authz.authorize(lease({ verb: 'update', name: 'n1' }))).decision).to.equal('allow');
    expect((await authz.authorize(lease({ verb: 'update', name: 'n2' }))).reason).to.equal('can only access node lease with the same name as the requesting node');
    expect((await authz.authorize(lease({ verb: 'get', name: 'n1', namespace: 'default' }))).reason).to.equal('can only access leases in the "kube-node-lease" system namespace');
  });

  it('judges other resources by the static system:node rules', async () => {
    expect((await authz.authorize(a({ resource: 'nodes', namespace: '', verb: 'patch', name: 'n1' }))).decision).to.equal('allow');
    expect((await authz.authorize(a({ resource: 'namespaces', namespace: '', verb: 'delete', name: 'x' }))).decision).to.equal('noOpinion');
  });

  it('reads the secrets named by the volumes of its claims', async () => {
    const g = new NodeAuthorizer(nodeRules);
    g.graph.upsertPod({ metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'claim' } }] } });
    g.graph.upsertClaim({ metadata: { name: 'claim', namespace: 'ns' }, spec: { volumeName: 'pv1' } });
    g.graph.upsertVolume({ metadata: { name: 'pv1' }, spec: { claimRef: { namespace: 'ns', name: 'claim' },
      csi: { driver: 'd', volumeHandle: 'h', nodePublishSecretRef: { name: 'csi-secret', namespace: 'creds' } }, rbd: { secretRef: { name: 'rbd-secret' } } } });
    expect((await g.authorize(a({ namespace: 'creds', name: 'csi-secret' }))).decision).to.equal('allow');
    // A secret reference without a namespace means the claim's.
    expect((await g.authorize(a({ namespace: 'ns', name: 'rbd-secret' }))).decision).to.equal('allow');
    expect((await g.authorize(a({ namespace: 'ns', name: 'csi-secret' }))).decision).to.equal('noOpinion');
    g.graph.deleteVolume({ metadata: { name: 'pv1' } });
    expect((await g.authorize(a({ namespace: 'creds', name: 'csi-secret' }))).decision).to.equal('noOpinion');
  });

  it('removing the pod removes the path', async () => {
    const g = new NodeAuthorizer(nodeRules);
    const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1', imagePullSecrets: [{ name: 'pull' }] } };
    g.graph.upsertPod(pod);
    expect((await g.authorize(a({ name: 'pull' }))).decision).to.equal('allow');
    g.graph.deletePod(pod);
    expect((await g.authorize(a({ name: 'pull' }))).decision).to.equal('noOpinion');
  });
});
