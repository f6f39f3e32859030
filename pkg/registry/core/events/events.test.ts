import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { eventsV1 } from '../../events/events/index.js';
import { eventFromCore, eventToCore } from './conversion.js';
import { events } from './index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));

const legacy = (over: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'v1', kind: 'Event',
  metadata: { name: 'pod.1', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'p1' },
  reason: 'Started', message: 'Started container', source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:10Z', count: 3, type: 'Normal',
  ...over,
});

const modern = (over: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'events.k8s.io/v1', kind: 'Event',
  metadata: { name: 'web.1', namespace: 'default' },
  eventTime: '2024-01-01T00:00:00.123456Z',
  reportingController: 'example.com/ctrl', reportingInstance: 'ctrl-1', action: 'Scale', reason: 'Scaled',
  regarding: { kind: 'Deployment', namespace: 'default', name: 'web' }, note: 'scaled up', type: 'Normal',
  ...over,
});

describe('events (core/v1)', () => {
  const s = events.strategy;

  it('declares upstream discovery data and write rules', () => {
    expect(events).to.include({ group: '', kind: 'Event', plural: 'events', singular: 'event', namespaced: true });
    expect(events.shortNames).to.deep.equal(['ev']);
    expect(s.allowCreateOnUpdate).to.equal(true);
    expect(s.allowUnconditionalUpdate).to.equal(true);
  });

  it('fills the fields upstream always writes', () => {
    const obj: KubeObject = { metadata: { name: 'e' }, reason: '' };
    s.applyDefaults(obj);
    expect(obj).to.deep.equal({
      metadata: { name: 'e' }, involvedObject: {}, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null,
      reportingComponent: '', reportingInstance: '',
    });
  });

  it('accepts a legacy event and checks namespaces agree', () => {
    expect(s.validate(legacy(), {})).to.deep.equal([]);
    expect(render(s.validate(legacy({ involvedObject: { kind: 'Pod', namespace: 'other', name: 'web' } }), {}))).to.deep.equal([
      'involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
    const clusterScoped = legacy({ metadata: { name: 'n.1', namespace: 'team' }, involvedObject: { kind: 'Node', name: 'node-1' } });
    expect(render(s.validate(clusterScoped, {}))).to.deep.equal([
      'involvedObject.namespace: Invalid value: "": does not match event.namespace']);
  });

  it('a core event with eventTime needs the reporting fields (core field names)', () => {
    const obj = legacy({ eventTime: '2024-01-01T00:00:00.000000Z', reason: '', action: undefined });
    expect(render(s.validate(obj, {}))).to.deep.equal([
      'reportingComponent: Required value',
      'reportingComponent: Invalid value: "": name part must be non-empty',
      "reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });

  it('does not hold core writes to the new rules, even on update', () => {
    const old = legacy();
    expect(s.validateUpdate({ ...legacy({ message: 'changed', count: 4 }), metadata: { ...old.metadata, resourceVersion: '2' } },
      { ...old, metadata: { ...old.metadata, resourceVersion: '2' } }, {})).to.deep.equal([]);
  });

  it('prints LAST SEEN TYPE REASON OBJECT MESSAGE, plus wide columns', () => {
    expect(events.table!.columns.filter((c) => c.priority === 0).map((c) => c.name))
      .to.deep.equal(['Last Seen', 'Type', 'Reason', 'Object', 'Message']);
    expect(events.table!.columns.map((c) => c.name)).to.deep.equal(
      ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    const now = Date.parse('2024-01-01T00:01:10Z');
    const realNow = Date.now;
    Date.now = () => now;
    try {
      expect(events.table!.cells(legacy())).to.deep.equal(
        ['60s', 'Normal', 'Started', 'pod/web', '', 'kubelet, node-1', 'Started container', '70s', 3, 'pod.1']);
    } finally {
      Date.now = realNow;
    }
  });

  it('selects on involvedObject, reason, source, type and reportingComponent', () => {
    const f = events.selectableFields!(legacy());
    expect(f).to.include({ 'involvedObject.kind': 'Pod', 'involvedObject.name': 'web', reason: 'Started', source: 'kubelet', type: 'Normal', reportingComponent: '' });
    expect(Object.keys(events.selectableFields!({ metadata: {} }))).to.have.length(11);
  });
});

describe('events (events.k8s.io/v1)', () => {
  const s = eventsV1.strategy;

  it('declares upstream discovery data over the core storage', () => {
    expect(eventsV1).to.include({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true });
    expect(eventsV1.shortNames).to.deep.equal(['ev']);
    expect(eventsV1.conversion).to.not.equal(undefined);
  });

  it('converts to the stored core form and back without loss', () => {
    const core = eventToCore(modern({ deprecatedCount: 2, related: { kind: 'Pod', name: 'p' } }));
    expect(core).to.deep.equal({
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1', namespace: 'default' },
      eventTime: '2024-01-01T00:00:00.123456Z', reportingInstance: 'ctrl-1', action: 'Scale', reason: 'Scaled',
      related: { kind: 'Pod', name: 'p' }, type: 'Normal',
      involvedObject: { kind: 'Deployment', namespace: 'default', name: 'web' }, message: 'scaled up', source: {},
      count: 2, reportingComponent: 'example.com/ctrl', firstTimestamp: null, lastTimestamp: null,
    });
    expect(eventFromCore(core)).to.deep.equal({
      ...modern({ deprecatedCount: 2, related: { kind: 'Pod', name: 'p' } }),
      deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null,
    });
  });

  it('accepts a well-formed new event', () => {
    expect(s.validate(modern(), {})).to.deep.equal([]);
  });

  it('holds new events to the new rules (paths use core names, as upstream does)', () => {
    const bad = modern({
      eventTime: null, type: 'Odd', reportingController: undefined, deprecatedCount: 2,
      deprecatedSource: { component: 'x' }, deprecatedFirstTimestamp: '2024-01-01T00:00:00Z', series: { count: 1 },
    });
    expect(render(s.validate(bad, {}))).to.deep.equal([
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      'eventTime: Required value',
      'type: Invalid value: "": has invalid value: Odd',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]);
    const noController = render(s.validate(modern({ reportingController: undefined }), {}));
    expect(noController[0]).to.equal('reportingController: Required value');
  });

  it('most fields are immutable on update', () => {
    const old = modern({ metadata: { name: 'web.1', namespace: 'default', resourceVersion: '5' } });
    const changed = modern({ metadata: { name: 'web.1', namespace: 'default', resourceVersion: '5' }, note: 'other', reason: 'Other',
      eventTime: '2024-01-01T00:00:00.1234569Z' });
    expect(render(s.validateUpdate(changed, old, {}))).to.deep.equal([
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "other": field is immutable',
    ]);
  });

  it('prints and selects through the core view', () => {
    const obj = modern();
    const cells = eventsV1.table!.cells(obj);
    expect(cells.slice(1, 7)).to.deep.equal(['Normal', 'Scaled', 'deployment/web', '', 'example.com/ctrl, ctrl-1', 'scaled up']);
    expect(cells[8]).to.equal(1);
    expect(eventsV1.selectableFields!(obj)).to.include({
      reason: 'Scaled', reportingComponent: 'example.com/ctrl', type: 'Normal',
      'involvedObject.kind': 'Deployment', 'involvedObject.namespace': 'default', 'involvedObject.name': 'web',
    });
    // Selectors name the events.k8s.io fields and are matched against the core ones.
    expect(eventsV1.fieldLabels!.labels).to.include({ 'regarding.name': 'involvedObject.name', reportingController: 'reportingComponent' });
  });
});
