import { expect } from 'chai';
import type { KubeObject } from '../../../runtime/object.js';
import { StatusError } from '../../../runtime/errors.js';
import { capUpdateManagers, decodeManagedFields, encodeManagedFields, managerId } from './entries.js';
import { conflictError, printManager } from './conflict.js';
import { FieldManager } from './manager.js';
import { field, keyElement, parseElementKey, pathString } from './path.js';
import { FieldSet } from './set.js';
import { compare, merge, toFieldSet } from './typed.js';
import { patchSchemaFor } from '../../../openapi/patch-schema.js';

const cmManager = () => new FieldManager({ group: '', version: 'v1', kind: 'ConfigMap', subresource: '', ignored: [] });
const cm = (data: Record<string, string>, meta: Record<string, unknown> = {}): Record<string, unknown> =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', ...meta }, data });
const persisted = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, uid: 'u1', resourceVersion: '7' } });
const fieldsOf = (o: KubeObject) => Object.fromEntries((o.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}`, e.fieldsV1]));

describe('managedfields', () => {
  describe('FieldsV1', () => {
    it('round-trips, sorts elements (fields, keys, values, indices) and marks member-with-children with "."', () => {
      const s = FieldSet.of(
        [field('metadata'), field('labels'), field('b')],
        [field('metadata'), field('labels')],
        [field('metadata'), field('labels'), field('a')],
        [field('spec'), field('ports'), keyElement([['protocol', 'TCP'], ['containerPort', 80]])],
        [field('spec'), field('ports'), keyElement([['protocol', 'TCP'], ['containerPort', 80]]), field('name')],
        [field('metadata'), field('finalizers'), { kind: 'value', value: 'x' }],
        [field('list'), { kind: 'index', index: 2 }],
      );
      const doc = s.toFieldsV1();
      expect(JSON.stringify(doc)).to.equal(JSON.stringify({
        'f:list': { 'i:2': {} },
        'f:metadata': { 'f:finalizers': { 'v:"x"': {} }, 'f:labels': { '.': {}, 'f:a': {}, 'f:b': {} } },
        'f:spec': { 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:name': {} } } },
      }));
      expect(FieldSet.fromFieldsV1(doc).equals(s)).to.equal(true);
      expect(() => parseElementKey('x:1')).to.throw('unknown path element tag');
    });

    it('prints paths as conflict messages do', () => {
      expect(pathString([field('spec'), field('ports'), keyElement([['protocol', 'TCP'], ['containerPort', 80]]), field('name')]))
        .to.equal('.spec.ports[containerPort=80,protocol="TCP"].name');
      expect(pathString([field('metadata'), field('finalizers'), { kind: 'value', value: 'a' }])).to.equal('.metadata.finalizers[="a"]');
      expect(pathString([field('x'), { kind: 'index', index: 3 }])).to.equal('.x[3]');
    });

    it('set algebra: difference is per node, recursiveDifference drops whole subtrees', () => {
      const a = FieldSet.of([field('a'), field('b'), field('c')], [field('a'), field('b')], [field('d')]);
      const b = FieldSet.of([field('a'), field('b')]);
      expect(a.difference(b).toFieldsV1()).to.deep.equal({ 'f:a': { 'f:b': { 'f:c': {} } }, 'f:d': {} });
      expect(a.recursiveDifference(b).toFieldsV1()).to.deep.equal({ 'f:d': {} });
      expect(a.intersection(b).toFieldsV1()).to.deep.equal({ 'f:a': { 'f:b': {} } });
    });
  });

  describe('typed values', () => {
    const cmSchema = patchSchemaFor('', 'v1', 'ConfigMap');
    it('toFieldSet owns map keys and leaves, not the named fields above them', () => {
      expect(toFieldSet(cm({ k: 'v' }, { labels: { a: 'b' } }), cmSchema).toFieldsV1()).to.deep.equal({
        'f:apiVersion': {}, 'f:data': { 'f:k': {} }, 'f:kind': {}, 'f:metadata': { 'f:labels': { 'f:a': {} }, 'f:name': {} },
      });
    });
    it('compare reports added containers as members too', () => {
      const c = compare({ metadata: { name: 'c' } }, cm({ k: 'v' }), cmSchema);
      expect(c.added.toFieldsV1()).to.deep.include({ 'f:data': { '.': {}, 'f:k': {} } });
      expect(c.modified.isEmpty()).to.equal(true);
    });
    it('merges keyed lists by key: configuration order, live-only items where they were', () => {
      const saSchema = patchSchemaFor('', 'v1', 'ServiceAccount');
      const live = { secrets: [{ name: 'a' }, { name: 'x' }, { name: 'b' }] };
      const config = { secrets: [{ name: 'b', namespace: 'n' }, { name: 'a' }, { name: 'c' }] };
      expect(merge(live, config, saSchema)).to.deep.equal({ secrets: [{ name: 'x' }, { name: 'b', namespace: 'n' }, { name: 'a' }, { name: 'c' }] });
    });
  });

  describe('FieldManager', () => {
    it('records creates against the zero value (a top-level empty struct is not a change)', () => {
      const fm = new FieldManager({ group: '', version: 'v1', kind: 'Namespace', subresource: '', ignored: [[field('status')]] });
      const out = fm.update(null, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: { a: 'b' } }, spec: {}, status: { phase: 'Active' } }, 'm');
      expect(fieldsOf(out)).to.deep.equal({ 'm/Update': { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } });
    });

    it('creates of one shape get what a fresh comparison gives: values may differ, lists count as written, no entry shared', () => {
      const svc = (name: string, port: number, portName: string, label: string | null): KubeObject => ({
        apiVersion: 'v1', kind: 'Service', metadata: { name, labels: { app: label } as Record<string, string> },
        spec: { ports: [{ port, protocol: 'TCP', name: portName }], selector: { app: 'x' } },
      } as unknown as KubeObject);
      const fm = new FieldManager({ group: '', version: 'v1', kind: 'Service', subresource: '', ignored: [[field('status')]] });
      const fresh = (o: KubeObject) => fieldsOf(new FieldManager({ group: '', version: 'v1', kind: 'Service', subresource: '', ignored: [[field('status')]] }).update(null, o, 'm'));
      const first = fm.update(null, svc('a', 80, 'http', 'a'), 'm');
      const again = fm.update(null, svc('b', 80, 'http', 'b'), 'm');
      expect(fieldsOf(again)).to.deep.equal(fresh(svc('b', 80, 'http', 'b')));
      expect(again.metadata.name).to.equal('b');
      expect(again.metadata.managedFields![0]!.fieldsV1).to.not.equal(first.metadata.managedFields![0]!.fieldsV1);
      // A port is a list item's key: another port is another path.
      expect(fieldsOf(fm.update(null, svc('c', 81, 'http', 'c'), 'm'))).to.deep.equal(fresh(svc('c', 81, 'http', 'c')));
      // A null label is no label: not the shape of a set one.
      expect(fieldsOf(fm.update(null, svc('d', 80, 'http', null), 'm'))).to.deep.equal(fresh(svc('d', 80, 'http', null)));
      expect(fieldsOf(fm.update(null, svc('e', 80, 'http', 'e'), 'other'))).to.have.keys('other/Update');
    });

    it('records creates against the Go zero value: value structs and nil slices exist, pointers and RawExtensions do not', () => {
      const lease = new FieldManager({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', subresource: '', ignored: [] });
      const l = lease.update(null, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'h' } }, 'm');
      expect(fieldsOf(l)).to.deep.equal({ 'm/Update': { 'f:spec': { 'f:holderIdentity': {} } } });
      const api = new FieldManager({ group: 'apiregistration.k8s.io', version: 'v1', kind: 'APIService', subresource: '', ignored: [] });
      const a = api.update(null, { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name: 'v1.x' },
        spec: { group: 'x', version: 'v1', service: { name: 's', namespace: 'n' } } }, 'm');
      expect(fieldsOf(a)['m/Update']).to.deep.equal({ 'f:spec': { 'f:group': {}, 'f:version': {}, 'f:service': { '.': {}, 'f:name': {}, 'f:namespace': {} } } });
      const cr = new FieldManager({ group: 'apps', version: 'v1', kind: 'ControllerRevision', subresource: '', ignored: [] });
      const c = cr.update(null, { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'c' }, data: { a: 1 }, revision: 1 }, 'm');
      expect(fieldsOf(c)['m/Update']).to.deep.equal({ 'f:data': {}, 'f:revision': {} });
      const csinode = new FieldManager({ group: 'storage.k8s.io', version: 'v1', kind: 'CSINode', subresource: '', ignored: [] });
      const n = csinode.update(null, { apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', metadata: { name: 'n' }, spec: { drivers: [] } }, 'm');
      expect(fieldsOf(n)['m/Update']).to.deep.equal({ 'f:spec': { 'f:drivers': {} } });
    });

    it('apply: conflicts, force, shared ownership and pruning', () => {
      const fm = cmManager();
      const a = persisted(fm.apply(null, cm({ x: '1', y: '1' }), 'a', false));
      expect(fieldsOf(a)).to.deep.equal({ 'a/Apply': { 'f:data': { 'f:x': {}, 'f:y': {} } } });
      let err: unknown;
      try { fm.apply(a, cm({ x: '2' }), 'b', false); } catch (e) { err = e; }
      expect(err).to.be.instanceOf(StatusError);
      expect((err as StatusError).message).to.equal('Apply failed with 1 conflict: conflict with "a": .data.x');
      const shared = persisted(fm.apply(a, cm({ y: '1' }), 'b', false));
      expect(fieldsOf(shared)['b/Apply']).to.deep.equal({ 'f:data': { 'f:y': {} } });
      const dropped = fm.apply(shared, cm({}), 'a', false);
      expect(dropped.data).to.deep.equal({ y: '1' });
      const forced = fm.apply(shared, cm({ x: '3' }), 'b', true);
      expect(fieldsOf(forced)).to.deep.equal({ 'a/Apply': { 'f:data': { 'f:y': {} } }, 'b/Apply': { 'f:data': { 'f:x': {} } } });
    });

    it('update: a single empty entry resets; an empty list keeps the live entries; untracked objects stay untracked', () => {
      const fm = cmManager();
      const live = persisted(fm.apply(null, cm({ x: '1' }), 'a', false));
      const empty = fm.update(live, { ...structuredClone(live), metadata: { ...live.metadata, managedFields: [] } }, 'u');
      expect(Object.keys(fieldsOf(empty))).to.deep.equal(['a/Apply']);
      const reset = fm.update(live, { ...structuredClone(live), metadata: { ...live.metadata, managedFields: [{}] }, data: { x: '1', n: '2' } }, 'u');
      expect(fieldsOf(reset)).to.deep.equal({ 'u/Update': { 'f:data': { 'f:n': {} } } });
      const untracked = { ...structuredClone(live), metadata: { ...live.metadata, managedFields: undefined } };
      expect(fm.update(untracked, { ...untracked, data: { z: '1' } }, 'u').metadata.managedFields).to.equal(undefined);
    });

    it('lets kubectl take over fields its last-applied annotation describes', () => {
      const fm = cmManager();
      const last = JSON.stringify(cm({ k: 'one' }, { namespace: 'ns' }));
      const csa = persisted(fm.update(null, { ...cm({ k: 'one' }), metadata: { name: 'c', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': last } } } as KubeObject, 'kubectl-client-side-apply'));
      expect(() => fm.apply(csa, cm({ k: 'two' }), 'someone', false)).to.throw('conflict with "kubectl-client-side-apply" using v1: .data.k');
      const ssa = fm.apply(csa, cm({ k: 'two' }), 'kubectl', false);
      expect(ssa.data).to.deep.equal({ k: 'two' });
      expect(ssa.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration']).to.equal('{"apiVersion":"v1","data":{"k":"two"},"kind":"ConfigMap","metadata":{"name":"c"}}\n');
    });

    it('rejects what upstream rejects before merging', () => {
      const fm = cmManager();
      expect(() => fm.apply(null, { ...cm({}), kind: 'Secret' }, 'a', false)).to.throw('invalid object type: /v1, Kind=Secret');
      expect(() => fm.apply(null, { ...cm({}), metadata: { name: 'c', managedFields: [] } }, 'a', false)).to.throw('metadata.managedFields must be nil');
      expect(() => fm.apply(null, { ...cm({}), extra: 1 }, 'a', false)).to.throw('failed to create typed patch object (/c; /v1, Kind=ConfigMap): .extra: field not declared in schema');
    });
  });

  describe('status writes (kept documents)', () => {
    const podMain = () => new FieldManager({ group: '', version: 'v1', kind: 'Pod', subresource: '', ignored: [[field('status')]] });
    const podStatus = () => new FieldManager({ group: '', version: 'v1', kind: 'Pod', subresource: 'status', ignored: [[field('spec')]] });
    const pod = (status: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'u1', resourceVersion: '7' },
      spec: { nodeName: 'n', containers: [{ name: 'c', image: 'i' }] }, status } as KubeObject);
    const canonical = (o: KubeObject) => encodeManagedFields(decodeManagedFields(JSON.parse(JSON.stringify(o.metadata.managedFields))));

    it('a heartbeat and a changed status leave each entry as a fresh encoding would, the untouched owner\'s document kept', () => {
      const created = podMain().update(null, pod({}), 'creator');
      const first = podStatus().update(created, pod({ phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] }), 'kubelet');
      const again = podStatus().update(first, pod({ phase: 'Pending', conditions: [{ type: 'Ready', status: 'True' }] }), 'kubelet');
      const moved = podStatus().update(again, pod({ phase: 'Running', podIP: '10.0.0.1' }), 'kubelet');
      for (const o of [first, again, moved]) expect(o.metadata.managedFields).to.deep.equal(canonical(o));
      expect(fieldsOf(moved)['kubelet/Update']).to.deep.equal({ 'f:status': { 'f:phase': {}, 'f:podIP': {} } });
      expect(fieldsOf(again)['creator/Update']).to.equal(fieldsOf(first)['creator/Update']);
    });

    it('a document a client sent is written back in the canonical form, not as sent', () => {
      const live = persisted(cmManager().update(null, cm({ a: '1' }) as KubeObject, 'm'));
      const sent = [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': { '.': {} } } } }];
      const out = cmManager().update(live, cm({ a: '2' }, { managedFields: sent }) as KubeObject, 'other');
      expect(fieldsOf(out)['m/Update']).to.equal(undefined);
      const kept = cmManager().update(live, cm({ a: '1', b: '2' }, { managedFields: sent }) as KubeObject, 'other');
      expect(fieldsOf(kept)['m/Update']).to.deep.equal({ 'f:data': { 'f:a': {} } });
    });

    it('entries sent back as read (a merge patch, a read-modify-write) are the live ones: their documents are kept', () => {
      const fm = cmManager();
      const live = persisted(fm.update(persisted(fm.update(null, cm({ a: '1' }) as KubeObject, 'm')), cm({ a: '1', b: '1' }) as KubeObject, 'n'));
      const out = fm.update(live, { ...structuredClone(live), data: { a: '1', b: '2', c: '3' } }, 'n');
      expect(out.metadata.managedFields).to.deep.equal(canonical(out));
      expect(fieldsOf(out)['m/Update']).to.equal(fieldsOf(live)['m/Update']);
      expect(fieldsOf(out)['n/Update']).to.deep.equal({ 'f:data': { 'f:b': {}, 'f:c': {} } });
      // The same write with entries that are not the live ones (the same sets, written otherwise): documents rebuilt.
      const sent = structuredClone(live.metadata.managedFields)!;
      expect(sent[0]!.fieldsV1).to.deep.equal({ 'f:data': { '.': {}, 'f:a': {} } });
      sent[0]!.fieldsV1 = { 'f:data': { '.': {}, 'f:a': { '.': {} } } };
      const rebuilt = fm.update(live, { ...structuredClone(live), metadata: { ...live.metadata, managedFields: sent }, data: { a: '1', b: '2', c: '3' } }, 'n');
      expect(rebuilt.metadata.managedFields).to.deep.equal(out.metadata.managedFields);
      expect(fieldsOf(rebuilt)['m/Update']).to.not.equal(fieldsOf(live)['m/Update']);
    });

    it('difference gives the set itself when nothing is taken away, covers and overlaps by member', () => {
      const a = FieldSet.of([field('a'), field('b')], [field('c')]);
      expect(a.difference(FieldSet.of([field('a'), field('x')]))).to.equal(a);
      expect(a.difference(FieldSet.of([field('a')]))).to.equal(a);
      expect(a.difference(FieldSet.of([field('c')])).toFieldsV1()).to.deep.equal({ 'f:a': { 'f:b': {} } });
      expect(a.covers(FieldSet.of([field('a'), field('b')]))).to.equal(true);
      expect(a.covers(FieldSet.of([field('a')]))).to.equal(false);
      expect(a.overlaps(FieldSet.of([field('a')]))).to.equal(false);
      expect(a.overlaps(FieldSet.of([field('a'), field('b')]))).to.equal(true);
    });
  });

  describe('entries', () => {
    it('identifies managers as upstream (no apiVersion for appliers) and prints them in messages', () => {
      expect(managerId({ manager: 'm', operation: 'Update', apiVersion: 'v1', subresource: 'status' })).to.equal('{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"status"}');
      expect(managerId({ manager: 'm', operation: 'Apply', apiVersion: 'v1' })).to.equal('{"manager":"m","operation":"Apply"}');
      expect(printManager('{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"status"}')).to.equal('"m" with subresource "status" using v1');
      expect(printManager('{"manager":"m","operation":"Apply"}')).to.equal('"m"');
    });

    it('folds the oldest of more than ten Update entries into ancient-changes', () => {
      const entries = Array.from({ length: 12 }, (_, i) => ({
        manager: `m${i}`, operation: 'Update' as const, apiVersion: 'v1', time: `2024-01-01T00:00:${String(10 + i)}Z`, fieldsType: 'FieldsV1' as const, fieldsV1: { [`f:k${i}`]: {} },
      }));
      const managed = decodeManagedFields(entries);
      capUpdateManagers(managed);
      const out = encodeManagedFields(managed);
      expect(out).to.have.length(10);
      const ancient = out.find((e) => e.manager === 'ancient-changes')!;
      expect(ancient.fieldsV1).to.deep.equal({ 'f:k0': {}, 'f:k1': {}, 'f:k2': {} });
    });

    it('groups several conflicts by manager', () => {
      const err = conflictError([
        { managerId: '{"manager":"b","operation":"Apply"}', path: [field('data'), field('y')] },
        { managerId: '{"manager":"a","operation":"Update","apiVersion":"v1"}', path: [field('data'), field('x')] },
      ]);
      expect(err.code).to.equal(409);
      expect(err.message).to.equal('Apply failed with 2 conflicts: conflicts with "a" using v1:\n- .data.x\nconflicts with "b":\n- .data.y');
      expect(err.details?.causes?.[0]).to.deep.equal({ reason: 'FieldManagerConflict', message: 'conflict with "a" using v1', field: '.data.x' });
    });
  });

  describe('updates remembered by shape (update-memo.ts)', () => {
    type Make = (v: string) => KubeObject;
    const lease = () => new FieldManager({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', subresource: '', ignored: [] });
    const leaseOf = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject =>
      ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l', ...meta }, spec } as KubeObject);
    /** The live object `create` makes, written by `by` (a different manager makes two entries). */
    const liveOf = (fm: FieldManager, obj: KubeObject, by = 'm'): KubeObject => {
      const live = persisted(fm.update(null, obj, by));
      // An old time: a new one must show.
      for (const e of live.metadata.managedFields ?? []) e.time = '2020-01-01T00:00:00Z';
      return live;
    };
    // Each case: how the live object is made, how the update's object is made from a value, the writer.
    const cases: Array<{ name: string; fm: () => FieldManager; live: Make; next: Make; by?: string; writer?: string }> = [
      { name: 'a changed value, same shape', fm: cmManager, live: (v) => cm({ k: v, p: 'x' }) as KubeObject, next: (v) => cm({ k: `${v}-2`, p: 'x' }, { resourceVersion: '7' }) as KubeObject },
      { name: 'no value changed', fm: cmManager, live: (v) => cm({ k: v }) as KubeObject, next: (v) => cm({ k: v }, { resourceVersion: '7' }) as KubeObject },
      { name: 'only system metadata changed', fm: cmManager, live: (v) => cm({ k: v }) as KubeObject, next: (v) => cm({ k: v }, { generation: 3, uid: 'u1' }) as KubeObject },
      { name: 'a key added', fm: cmManager, live: (v) => cm({ p: v }) as KubeObject, next: (v) => cm({ k: v, p: v }) as KubeObject },
      { name: 'a key removed', fm: cmManager, live: (v) => cm({ k: v, p: v }) as KubeObject, next: (v) => cm({ p: v }) as KubeObject },
      { name: 'a label added and a value changed', fm: cmManager, live: (v) => cm({ k: v }) as KubeObject, next: (v) => cm({ k: `${v}+` }, { labels: { a: v } }) as KubeObject },
      { name: 'keys in another order', fm: cmManager, live: (v) => cm({ a: v, b: v }) as KubeObject, next: (v) => cm({ b: `${v}.`, a: v }) as KubeObject },
      { name: 'another manager owns the object', fm: cmManager, live: (v) => cm({ k: v }) as KubeObject, next: (v) => cm({ k: `${v}!` }) as KubeObject, by: 'other' },
      { name: 'a Lease renewed', fm: lease, live: (v) => leaseOf({ holderIdentity: 'h', renewTime: `2026-01-01T00:00:0${v.length % 10}.000000Z` }), next: (v) => leaseOf({ holderIdentity: 'h', renewTime: `2026-01-02T00:00:${v}.000000Z` }) },
      { name: 'a Lease field added', fm: lease, live: () => leaseOf({ holderIdentity: 'h' }), next: (v) => leaseOf({ holderIdentity: 'h', leaseDurationSeconds: v.length }) },
    ];
    // Times are the second's: a case that straddles one compares whether each entry's time is the live one's.
    const timeless = (o: KubeObject, live: KubeObject) => JSON.parse(JSON.stringify(o, (k, v: unknown) =>
      (k === 'time' ? (live.metadata.managedFields ?? []).some((e) => e.time === v) : v))) as unknown;
    for (const c of cases) {
      it(`gives what computing gives: ${c.name}`, () => {
        const warm = c.fm();
        const writer = c.writer ?? 'm';
        // Learned on one pair, recalled on pairs of the same shapes with other values.
        for (const v of ['10', '11', '12']) {
          const live = liveOf(warm, c.live(`${v}a`), c.by);
          const got = warm.update(live, c.next(`${v}b`), writer);
          const cold = c.fm();
          const live2 = liveOf(cold, c.live(`${v}a`), c.by);
          const want = cold.update(live2, c.next(`${v}b`), writer);
          expect(timeless(got, live)).to.deep.equal(timeless(want, live2));
          // The same entries sent back as read take the same path.
          const sentBack = c.next(`${v}b`);
          sentBack.metadata.managedFields = structuredClone(live.metadata.managedFields);
          expect(timeless(warm.update(live, sentBack, writer), live)).to.deep.equal(timeless(want, live2));
        }
      });
    }
  });
});
