import { expect } from 'chai';
import { decodeObject, encodeObject, openEnvelope, sealEnvelope } from './envelope.js';
import { canonicalRFC3339, formatGoDuration, parseGoDuration, parseRFC3339 } from './gotime.js';
import { Writer } from './wire.js';

type Obj = Record<string, any>;
const roundTrip = (o: Obj): Obj => decodeObject(encodeObject(o)) as Obj;

describe('protobuf codec: the fine points', () => {
  it('Time keeps seconds, MicroTime microseconds; zero times are null', () => {
    const ev = roundTrip({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e', creationTimestamp: '2026-01-02T03:04:05Z' },
      eventTime: '2026-01-02T03:04:05.123456Z', reportingController: 'c', reportingInstance: 'i', action: 'a', reason: 'r' });
    expect(ev.metadata.creationTimestamp).to.equal('2026-01-02T03:04:05Z');
    expect(ev.eventTime).to.equal('2026-01-02T03:04:05.123456Z');
    expect(ev.deprecatedFirstTimestamp).to.equal(null); // a Go struct: omitempty never omits it
    const cm = roundTrip({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(cm.metadata.creationTimestamp).to.equal(null);
    // A pointer to a time: null is a set pointer to the zero time (an empty message, as
    // upstream's MicroTime.Marshal writes it), absent a nil pointer (not written).
    const lease = (spec: Obj) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec });
    expect(Buffer.from(encodeObject(lease({ holderIdentity: 'x', acquireTime: null }))).toString('hex')).to.include('12050a01781a00');
    expect(Buffer.from(encodeObject(lease({ holderIdentity: 'x' }))).toString('hex')).to.include('12030a0178');
    expect(roundTrip(lease({ holderIdentity: 'x', acquireTime: null })).spec).to.deep.equal({ holderIdentity: 'x', acquireTime: null });
    expect(roundTrip(lease({ holderIdentity: 'x' })).spec).to.deep.equal({ holderIdentity: 'x' });
    expect(parseRFC3339('2026-01-02T04:04:05+01:00')).to.deep.equal(parseRFC3339('2026-01-02T03:04:05Z'));
  });

  it('a time in the form upstream serves it: UTC, cut to seconds or microseconds, zero time null', () => {
    expect(canonicalRFC3339('2024-05-01T12:00:00.123+02:00')).to.equal('2024-05-01T10:00:00Z');
    expect(canonicalRFC3339('2024-05-01T10:00:00.999999999Z')).to.equal('2024-05-01T10:00:00Z');
    expect(canonicalRFC3339('2024-05-01T00:30:00-01:00')).to.equal('2024-05-01T01:30:00Z');
    expect(canonicalRFC3339('2024-05-01T10:00:00Z')).to.equal('2024-05-01T10:00:00Z');
    expect(canonicalRFC3339('2024-05-01T12:00:00.1234569+02:00', 6)).to.equal('2024-05-01T10:00:00.123456Z');
    expect(canonicalRFC3339('2024-05-01T10:00:00.000000Z', 6)).to.equal('2024-05-01T10:00:00.000000Z');
    // Before 1970 the cut is still toward the past, as Go's calendar fields are.
    expect(canonicalRFC3339('1969-12-31T23:59:59.5Z')).to.equal('1969-12-31T23:59:59Z');
    expect(canonicalRFC3339('0001-01-01T00:00:00Z')).to.equal(null);
    expect(canonicalRFC3339('0001-01-01T01:00:00+01:00')).to.equal(null);
    expect(canonicalRFC3339('0001-01-01T00:00:00.000000Z', 6)).to.equal(null);
    expect(canonicalRFC3339('0001-01-01T00:00:00.000001Z', 6)).to.equal('0001-01-01T00:00:00.000001Z');
    // Years below 100 are years, not 1900 onwards.
    expect(canonicalRFC3339('0050-03-01T00:00:00Z')).to.equal('0050-03-01T00:00:00Z');
    expect(canonicalRFC3339('yesterday')).to.equal(undefined);
  });

  it('Duration as Go prints it', () => {
    expect(formatGoDuration(3_600e9)).to.equal('1h0m0s');
    expect(formatGoDuration(90e9)).to.equal('1m30s');
    expect(formatGoDuration(1.5e9)).to.equal('1.5s');
    expect(formatGoDuration(250e6)).to.equal('250ms');
    expect(formatGoDuration(0)).to.equal('0s');
    expect(parseGoDuration('1h2m3.5s')).to.equal(3_723.5e9);
    expect(parseGoDuration('x')).to.equal(undefined);
  });

  it('IntOrString, Quantity, int64 beyond 32 bits, bytes and maps', () => {
    const svc = roundTrip({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] } });
    expect(svc.spec.ports.map((p: Obj) => p.targetPort)).to.deep.equal(['http', 8081]);
    const pod = roundTrip({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', generation: 5_000_000_000 },
      spec: { containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '128Mi', cpu: '500m' } } }], activeDeadlineSeconds: 2 ** 40 } });
    expect(pod.metadata.generation).to.equal(5_000_000_000);
    expect(pod.spec.activeDeadlineSeconds).to.equal(2 ** 40);
    expect(pod.spec.containers[0].resources.limits).to.deep.equal({ cpu: '500m', memory: '128Mi' });
    const secret = roundTrip({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { b: 'AAEC/w==', a: '' } });
    expect(secret.data).to.deep.equal({ a: '', b: 'AAEC/w==' });
  });

  it('RawExtension and FieldsV1 carry JSON text', () => {
    const cr = roundTrip({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'r', managedFields: [
      { manager: 'm', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }] },
    data: { spec: { template: { x: [1, 'two'] } } }, revision: 3 });
    expect(cr.data).to.deep.equal({ spec: { template: { x: [1, 'two'] } } });
    expect(cr.metadata.managedFields[0].fieldsV1).to.deep.equal({ 'f:data': {} });
    expect(cr.revision).to.equal(3);
  });

  it('empty and absent lists decode as upstream marshals them (nil slices: omitted or null)', () => {
    const role = roundTrip({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: [] });
    expect(role.rules).to.equal(null); // Go: a nil []PolicyRule without omitempty
    const cm = roundTrip({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', finalizers: [] }, data: {} });
    expect(cm.metadata).to.not.have.property('finalizers');
    expect(cm).to.not.have.property('data');
  });

  it('skips fields it does not know (as upstream decoders do)', () => {
    const known = encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } });
    const { raw } = openEnvelope(known);
    const extra = new Writer().uint32((99 << 3) | 2).string('future field').uint32((98 << 3) | 0).int64(7).finish();
    const sealed = sealEnvelope('v1', 'ConfigMap', (w) => { w.raw(raw).raw(extra); });
    expect(decodeObject(sealed)).to.deep.equal(decodeObject(known));
  });

  it('refuses bodies that are not an envelope, or are truncated', () => {
    expect(() => decodeObject(Buffer.from('{"kind":"ConfigMap"}'))).to.throw(/does not appear to be a protobuf message/);
    const good = encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    expect(() => decodeObject(good.subarray(0, good.length - 5))).to.throw();
    expect(() => decodeObject(sealEnvelope('v1', 'NoSuchKind', () => {}))).to.throw(/no kind "NoSuchKind" is registered for version "v1"/);
  });
});

