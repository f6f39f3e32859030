import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { storageSegment } from '../../../runtime/scheme.js';
import { failure } from '../../../../test/harness/failure.js';
import { createThrough, invalidFixture, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { nodes } from './index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = nodes.strategy;

const stored = (): KubeObject => ({
  apiVersion: 'v1', kind: 'Node',
  metadata: { name: 'n1', uid: 'u', resourceVersion: '3', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], providerID: 'aws://i-1' },
  status: { capacity: { cpu: '2' }, allocatable: { cpu: '2' }, conditions: [{ type: 'Ready', status: 'True' }] },
});

describe('nodes', () => {
  it('declares upstream discovery data, key segment and field selector', () => {
    expect(nodes).to.include({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', singular: 'node', namespaced: false });
    expect(nodes.shortNames).to.deep.equal(['no']);
    expect(nodes.verbs).to.deep.equal(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(nodes.subresources?.map(({ name, kind, verbs }) => ({ name, kind, verbs }))).to.deep.equal([
      { name: 'proxy', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
      { name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] },
    ]);
    expect(storageSegment(nodes)).to.equal('minions');
    expect(nodes.selectableFields!({ spec: { unschedulable: true } })).to.deep.equal({ 'spec.unschedulable': 'true' });
    expect(nodes.selectableFields!({})).to.deep.equal({ 'spec.unschedulable': 'false' });
  });

  it('reproduces upstream\'s created fixture-node', () => {
    const { request, response } = objectFixture('v1', 'Node', 'fixtures-node');
    const want = withoutVolatile(response);
    // The TaintNodesByCondition admission plugin adds the not-ready taint.
    delete (want.spec as Record<string, unknown>).taints;
    expect(createThrough(nodes, request)).to.deep.equal(want);
  });

  it('answers node-bad-taint with upstream\'s status', () => {
    const fx = invalidFixture('node-bad-taint');
    expect(failure(() => createThrough(nodes, fx.request.body)).toStatus()).to.deep.equal(fx.response);
  });

  it('validates taint keys, values, effects and uniqueness', () => {
    const node: KubeObject = { metadata: { name: 'n' }, spec: { taints: [
      { key: 'a b', value: 'x'.repeat(64), effect: 'NoSchedule' },
      { key: 'k', effect: '' },
      { key: 'k', effect: 'NoExecute' },
      { key: 'k', effect: 'NoExecute' },
    ] } };
    const errs = render(s.validate(node, {}));
    expect(errs[0]).to.match(/^metadata\.taints\[0\]\.key: Invalid value: "a b": name part must consist of/);
    expect(errs[1]).to.match(/^metadata\.taints\[0\]\.value: Invalid value: "x{64}": must be no more than 63 characters/);
    expect(errs.slice(2)).to.deep.equal([
      'metadata.taints[1].effect: Required value',
      'metadata.taints[3]: Duplicate value: core.Taint{Key:"k", Value:"", Effect:"NoExecute", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
    ]);
  });

  it('keeps status on create, allocatable defaults to capacity', () => {
    const out = createThrough(nodes, { metadata: { name: 'n' }, status: { capacity: { cpu: '4' }, nodeInfo: { kubeletVersion: 'v1.28.0' } } });
    expect((out.status as Record<string, unknown>).allocatable).to.deep.equal({ cpu: '4' });
    expect((out.status as { nodeInfo: Record<string, string> }).nodeInfo.kubeletVersion).to.equal('v1.28.0');
  });

  it('main endpoint keeps status; status endpoint keeps spec', () => {
    const a = stored();
    a.spec = { ...(a.spec as object), unschedulable: true };
    a.status = { phase: 'x' };
    s.prepareForUpdate(a, stored(), {});
    expect(a.status).to.deep.equal(stored().status);
    expect((a.spec as Record<string, unknown>).unschedulable).to.equal(true);
    const b = stored();
    b.spec = { unschedulable: true };
    b.status = { conditions: [] };
    b.metadata.labels = { x: 'y' };
    s.prepareForUpdate(b, stored(), { subresource: 'status' });
    expect(b.spec).to.deep.equal(stored().spec);
    expect(b.status).to.deep.equal({ conditions: [] });
    expect(b.metadata.labels).to.deep.equal({ x: 'y' });
    expect(s.resetFields!('')).to.deep.equal([['status']]);
    expect(s.resetFields!('status')).to.deep.equal([['spec']]);
  });

  it('podCIDRs and providerID change only from empty', () => {
    const upd = stored();
    upd.spec = { podCIDRs: ['10.1.0.0/24'], providerID: 'aws://i-2' };
    expect(render(s.validateUpdate(upd, stored(), {}))).to.deep.equal([
      'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
      'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
    ]);
    const fresh = stored();
    fresh.spec = {};
    const set = stored();
    expect(s.validateUpdate(set, fresh, {})).to.deep.equal([]);
  });

  it('prints upstream\'s columns, wide ones at priority 1', () => {
    const fx = tableFixture('v1', 'Node');
    expect(nodes.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    const { response } = objectFixture('v1', 'Node', 'fixtures-node');
    response.metadata.creationTimestamp = new Date().toISOString();
    expect(nodes.table!.cells(response)).to.deep.equal(fx.rows[0]);
    const ready = stored();
    ready.metadata.labels = { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'worker' };
    ready.spec = { unschedulable: true };
    ready.status = { conditions: [{ type: 'Ready', status: 'False' }], addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
      nodeInfo: { kubeletVersion: 'v1.28.1', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7' } };
    expect(nodes.table!.cells(ready).filter((_, i) => i !== 3)).to.deep.equal(
      ['n1', 'NotReady,SchedulingDisabled', 'control-plane,worker', 'v1.28.1', '10.0.0.5', '<none>', 'Debian', '6.1', 'containerd://1.7']);
  });
});
