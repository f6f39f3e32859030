import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { arr, obj, type Obj } from '../../../apis/core/types.js';
import {
  createStatus, createThrough, invalidFixture, objectFixture, readSurface, stripVolatile, withoutPodAdmissionFields,
} from '../../../../test/harness/surface-fixtures.js';
import { pods } from './index.js';
import { validateBinding } from './binding.js';
import { podUpdateForbiddenMessage } from './strategy.js';

function createThroughNoValidate(spec: Obj): KubeObject {
  const o: KubeObject = { metadata: { name: 'x', namespace: 'fixtures' }, spec };
  pods.strategy.applyDefaults(o);
  return o;
}

function expected(name: string): KubeObject {
  const want = stripVolatile(objectFixture(name).response);
  withoutPodAdmissionFields(obj(want.spec)!);
  return want;
}

describe('pods', () => {
  for (const name of ['p', 'p-full']) {
    it(`creates fixture v1.Pod.${name} as upstream answered (defaults, status Pending, qosClass)`, () => {
      const got = stripVolatile(createThrough(pods, objectFixture(`v1.Pod.${name}`).request));
      expect(got).to.deep.equal(expected(`v1.Pod.${name}`));
    });
  }

  for (const c of ['pod-bad-container-name', 'pod-bad-env-name', 'pod-bad-port', 'pod-bad-pull-policy', 'pod-bad-resources',
    'pod-bad-restart-policy', 'pod-dup-container-names', 'pod-missing-volume', 'pod-no-containers', 'pod-no-image']) {
    it(`rejects ${c} with upstream's status`, () => {
      const f = invalidFixture(c);
      expect(f.status).to.equal(422);
      expect(createStatus(pods, f.request.body)).to.deep.equal(f.response);
    });
  }

  it('allows an image change on update and forbids other spec changes with upstream\'s message', () => {
    const old = createThrough(pods, objectFixture('v1.Pod.p').request);
    const s = pods.strategy;
    const imageOnly = structuredClone(old);
    (arr(obj(imageOnly.spec)!.containers)[0]!).image = 'nginx:1.26';
    s.prepareForUpdate(imageOnly, old, {});
    expect(s.validateUpdate(imageOnly, old, {})).to.deep.equal([]);

    const port = structuredClone(old);
    (arr(arr(obj(port.spec)!.containers)[0]!.ports)[0]!).containerPort = 81;
    s.prepareForUpdate(port, old, {});
    const errs = s.validateUpdate(port, old, {});
    expect(errs).to.have.length(1);
    expect(errs[0]!.field).to.equal('spec');
    const msg = fieldErrorMessage(errs[0]!);
    expect(msg.startsWith(`spec: Forbidden: ${podUpdateForbiddenMessage}\n`)).to.equal(true);
    // The fixture's header is the same text.
    const f = invalidFixture('pod-update-spec-forbidden');
    const causes = (f.response.details as { causes: Array<{ message: string }> }).causes;
    expect(causes.at(-1)!.message.startsWith(`Forbidden: ${podUpdateForbiddenMessage}\n`)).to.equal(true);
    // Then go-cmp's report of the internal core.PodSpec, as upstream prints it.
    expect(msg).to.include('\n  core.PodSpec{\n');
    expect(msg).to.include('\n- \t\t\t\t\tContainerPort: 80,\n+ \t\t\t\t\tContainerPort: 81,\n');
  });

  it('allows adding tolerations and lowering activeDeadlineSeconds, not removing tolerations', () => {
    const base = createThrough(pods, { metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i' }], activeDeadlineSeconds: 10, tolerations: [{ key: 'a', operator: 'Exists' }] } });
    const s = pods.strategy;
    const ok = structuredClone(base);
    (ok.spec as Obj).activeDeadlineSeconds = 5;
    (ok.spec as Obj).tolerations = [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }];
    expect(s.validateUpdate(ok, base, {})).to.deep.equal([]);
    const bad = structuredClone(base);
    (bad.spec as Obj).tolerations = [];
    (bad.spec as Obj).activeDeadlineSeconds = 20;
    expect(s.validateUpdate(bad, base, {}).map((e) => fieldErrorMessage(e).split('\n')[0])).to.deep.equal([
      'spec.activeDeadlineSeconds: Invalid value: 20: must be less than or equal to previous value',
      'spec.tolerations[0]: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    ]);
  });

  it('status endpoint keeps the spec; main endpoint keeps the status', () => {
    const old = createThrough(pods, objectFixture('v1.Pod.p').request);
    const s = pods.strategy;
    const viaStatus = structuredClone(old);
    (viaStatus.spec as Obj).nodeName = 'n1';
    viaStatus.status = { phase: 'Running', podIP: '10.0.0.1' };
    s.prepareForUpdate(viaStatus, old, { subresource: 'status' });
    expect((viaStatus.spec as Obj).nodeName).to.equal(undefined);
    expect(viaStatus.status).to.deep.equal({ phase: 'Running', podIP: '10.0.0.1' });
    const viaMain = structuredClone(old);
    viaMain.status = { phase: 'Running' };
    s.prepareForUpdate(viaMain, old, {});
    expect(viaMain.status).to.deep.equal({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('ephemeralcontainers endpoint changes only spec.ephemeralContainers', () => {
    const old = createThrough(pods, objectFixture('v1.Pod.p').request);
    const s = pods.strategy;
    const next = structuredClone(old);
    (next.spec as Obj).ephemeralContainers = [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }];
    (next.spec as Obj).restartPolicy = 'Never';
    s.prepareForUpdate(next, old, { subresource: 'ephemeralcontainers' });
    expect((next.spec as Obj).restartPolicy).to.equal('Always');
    expect(s.validateUpdate(next, old, { subresource: 'ephemeralcontainers' })).to.deep.equal([]);
    const changed = structuredClone(next);
    (arr((changed.spec as Obj).ephemeralContainers)[0]!).image = 'other';
    expect(s.validateUpdate(changed, next, { subresource: 'ephemeralcontainers' }).map((e) => fieldErrorMessage(e)))
      .to.deep.equal(['spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed\n']);
  });

  it('waits the termination grace period only for pods on a node that have not finished', () => {
    const s = pods.strategy;
    const p = createThrough(pods, objectFixture('v1.Pod.p').request);
    expect(s.gracePeriod!(p, undefined)).to.equal(0);
    (p.spec as Obj).nodeName = 'n1';
    expect(s.gracePeriod!(p, undefined)).to.equal(30);
    expect(s.gracePeriod!(p, 5)).to.equal(5);
    expect(s.gracePeriod!(p, 0)).to.equal(0);
    p.status = { phase: 'Succeeded' };
    expect(s.gracePeriod!(p, undefined)).to.equal(0);
  });

  it('refuses ephemeral containers on create and restricted fields on them', () => {
    const base = { name: 'c', image: 'i' };
    const status = (spec: Obj) => pods.strategy.validate(createThroughNoValidate(spec), {}).map((e) => fieldErrorMessage(e));
    expect(status({ containers: [base], ephemeralContainers: [{ name: 'd', image: 'i', ports: [{ containerPort: 80 }], targetContainerName: 'x' }] })).to.deep.equal([
      'spec.ephemeralContainers[0].targetContainerName: Not found: "x"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    ]);
  });

  it('validates a Binding target', () => {
    expect(validateBinding({ metadata: {}, target: { kind: 'Pod', name: '' } }).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
      'target.name: Required value',
    ]);
  });

  it('selects by upstream\'s pod fields', () => {
    const p = createThrough(pods, objectFixture('v1.Pod.p').request);
    expect(pods.selectableFields!(p)).to.deep.equal({
      'spec.nodeName': '', 'spec.restartPolicy': 'Always', 'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': '', 'spec.hostNetwork': 'false', 'status.phase': 'Pending', 'status.podIP': '',
      'status.nominatedNodeName': '',
    });
  });

  it('prints upstream\'s columns and the fixture\'s cells', () => {
    const table = readSurface('tables', 'v1.Pod.json') as { columnDefinitions: Array<Record<string, unknown>>; rows: unknown[][] };
    expect(pods.table!.columns.map(({ name, type, format, priority }) => ({ name, type, format, priority })))
      .to.deep.equal(table.columnDefinitions);
    for (const [i, name] of ['p', 'p-full'].entries()) {
      const p = createThrough(pods, objectFixture(`v1.Pod.${name}`).request);
      const cells = pods.table!.cells(p);
      const want = [...table.rows[i]!];
      want[4] = cells[4]; // Age
      expect(cells).to.deep.equal(want);
    }
    const running = createThrough(pods, objectFixture('v1.Pod.p').request);
    (running.spec as Obj).nodeName = 'n1';
    running.status = { phase: 'Running', podIP: '10.1.2.3', containerStatuses: [{ name: 'c', ready: true, restartCount: 2, state: { running: {} } }] };
    expect(pods.table!.cells(running)).to.deep.equal(['p', '1/1', 'Running', '2', pods.table!.cells(running)[4], '10.1.2.3', 'n1', '<none>', '<none>']);
  });
});
