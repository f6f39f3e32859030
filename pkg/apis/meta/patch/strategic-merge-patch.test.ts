import { expect } from 'chai';
import type { PatchSchema } from '../patch-schema.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';
import { failure } from '../../../../test/harness/failure.js';

type Doc = Record<string, unknown>;
type Tags = Pick<PatchSchema, 'patchStrategy' | 'patchMergeKey'>;

// Small PatchSchema fixtures modelled on the built-in types' patch tags.
const str: PatchSchema = { type: 'string', field: () => undefined, items: () => undefined };
const int: PatchSchema = { type: 'integer', field: () => undefined, items: () => undefined };

function struct(fields: Record<string, PatchSchema>, tags: Tags = {}): PatchSchema {
  return {
    type: 'object', isStruct: true, ...tags,
    field: (n) => (Object.prototype.hasOwnProperty.call(fields, n) ? fields[n] : undefined),
    items: () => undefined,
  };
}

function mapOf(values: PatchSchema): PatchSchema {
  return { type: 'object', field: () => undefined, items: () => values };
}

function listOf(items: PatchSchema, tags: Tags = {}): PatchSchema {
  return { type: 'array', ...tags, field: () => undefined, items: () => items };
}

const container = struct({
  name: str,
  image: str,
  args: listOf(str),
  ports: listOf(struct({ containerPort: int, name: str, protocol: str }), { patchStrategy: 'merge', patchMergeKey: 'containerPort' }),
  env: listOf(struct({ name: str, value: str }), { patchStrategy: 'merge', patchMergeKey: 'name' }),
  resources: struct({ limits: mapOf(str), requests: mapOf(str) }),
});

const volume = struct({
  name: str,
  emptyDir: struct({ medium: str }),
  hostPath: struct({ path: str }),
  configMap: struct({ name: str }),
});

const podSchema = struct({
  apiVersion: str,
  kind: str,
  metadata: struct({
    name: str,
    labels: mapOf(str),
    annotations: mapOf(str),
    finalizers: listOf(str, { patchStrategy: 'merge' }),
    ownerReferences: listOf(struct({ uid: str, name: str }), { patchStrategy: 'merge', patchMergeKey: 'uid' }),
  }),
  spec: struct({
    containers: listOf(container, { patchStrategy: 'merge', patchMergeKey: 'name' }),
    initContainers: listOf(container, { patchStrategy: 'merge', patchMergeKey: 'name' }),
    volumes: listOf(volume, { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' }),
    tolerations: listOf(struct({ key: str, effect: str, value: str })),
    nodeSelector: mapOf(str),
    affinity: struct({ nodeAffinity: struct({}) }),
    strategy: struct({ type: str, rollingUpdate: struct({ maxSurge: int, maxUnavailable: int }) }, { patchStrategy: 'retainKeys' }),
    template: struct({}, { patchStrategy: 'replace' }),
    matrix: listOf(listOf(int), { patchStrategy: 'merge' }),
    numbers: listOf(int, { patchStrategy: 'merge' }),
    bad: listOf(str, { patchStrategy: 'merge,replace' }),
    plainList: listOf(struct({ name: str }), { patchStrategy: 'merge' }),
  }),
});

const c = (name: string, extra: Doc = {}): Doc => ({ name, ...extra });

function pod(spec: Doc = {}, metadata: Doc = {}): Doc {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec };
}


describe('patch: strategic merge patch', () => {
  const cases: Array<[string, Doc, unknown, Doc]> = [
    // Upstream's documented example: a patched container list is merged by name, and a
    // container the live object lacks comes first.
    ['merges containers by name', pod({ containers: [c('patch-demo-ctr', { image: 'nginx' })] }),
      { spec: { containers: [c('patch-demo-ctr-2', { image: 'redis' })] } },
      pod({ containers: [c('patch-demo-ctr-2', { image: 'redis' }), c('patch-demo-ctr', { image: 'nginx' })] })],
    ['updates a container in place and keeps live order', pod({ containers: [c('a', { image: '1' }), c('b', { image: '2' })] }),
      { spec: { containers: [c('b', { image: '3' })] } },
      pod({ containers: [c('a', { image: '1' }), c('b', { image: '3' })] })],
    ['merges nested lists by their own keys', pod({ containers: [c('a', { env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }], ports: [{ containerPort: 80, name: 'http' }] })] }),
      { spec: { containers: [c('a', { env: [{ name: 'Y', value: '3' }], ports: [{ containerPort: 443 }] })] } },
      pod({ containers: [c('a', { env: [{ name: 'X', value: '1' }, { name: 'Y', value: '3' }], ports: [{ containerPort: 443 }, { containerPort: 80, name: 'http' }] })] })],
    ['deletes a list item with $patch: delete', pod({ containers: [c('a'), c('b'), c('a', { dup: true })] }),
      { spec: { containers: [{ name: 'a', $patch: 'delete' }] } },
      pod({ containers: [c('b')] })],
    ['replaces a list with $patch: replace', pod({ containers: [c('a'), c('b')] }),
      { spec: { containers: [{ $patch: 'replace' }, c('c', { image: 'x', gone: null })] } },
      pod({ containers: [c('c', { image: 'x' })] })],
    ['replaces a map with $patch: replace', pod({ nodeSelector: { zone: 'a', disk: 'hdd' } }),
      { spec: { nodeSelector: { $patch: 'replace', disk: 'ssd' } } },
      pod({ nodeSelector: { disk: 'ssd' } })],
    ['empties a map with $patch: delete', pod({ affinity: { nodeAffinity: { x: 1 } } }),
      { spec: { affinity: { $patch: 'delete' } } },
      pod({ affinity: {} })],
    ['replaces the whole object with a top-level $patch: replace', pod({ a: 1 }),
      { $patch: 'replace', kind: 'Pod' }, { kind: 'Pod' }],
    ['replaces lists without a merge strategy', pod({ tolerations: [{ key: 'a', effect: 'NoSchedule' }] }),
      { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } },
      pod({ tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] })],
    ['replaces a field with patchStrategy replace', pod({ template: { a: 1, b: 2 } }),
      { spec: { template: { b: 3, c: null } } }, pod({ template: { b: 3 } })],
    ['unions a primitive list with merge strategy', pod({}, { finalizers: ['a', 'b'] }),
      { metadata: { finalizers: ['c', 'a'] } }, pod({}, { finalizers: ['c', 'a', 'b'] })],
    ['deletes from a primitive list', pod({}, { finalizers: ['a', 'b', 'c'] }),
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'zz'] } }, pod({}, { finalizers: ['a', 'c'] })],
    ['deletes from a primitive list without merge strategy', pod({ containers: [c('a', { args: ['-v', '-x', '-y'] })] }),
      { spec: { containers: [c('a', { '$deleteFromPrimitiveList/args': ['-x'] })] } },
      pod({ containers: [c('a', { args: ['-v', '-y'] })] })],
    ['ignores a deletion list for a missing field', pod({}),
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, pod({})],
    ['orders a primitive list with $setElementOrder', pod({}, { finalizers: ['a', 'b', 'c'] }),
      { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'] } }, pod({}, { finalizers: ['c', 'b', 'a'] })],
    ['merges and orders a list of maps with $setElementOrder', pod({ containers: [c('a', { image: 'old' }), c('b'), c('c')] }),
      { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }, { name: 'b' }], containers: [c('a', { image: 'new' })] } },
      pod({ containers: [c('c'), c('a', { image: 'new' }), c('b')] })],
    ['keeps server-only items in live position around ordered ones', pod({ containers: [c('a'), c('x'), c('b'), c('y')] }),
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [c('b', { image: 'i' })] } },
      pod({ containers: [c('x'), c('b', { image: 'i' }), c('a'), c('y')] })],
    ['orders a list added by the patch', pod({}),
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }, { name: 'a' }], containers: [c('b'), c('a', { $patch: 'delete' }), c('c')] } },
      pod({ containers: [c('b'), c('c')] })],
    // Upstream deletes list items in place, so the live list that $setElementOrder
    // consults afterwards has shifted and holds the first added item.
    ['orders by the live list as rewritten by a deletion', pod({ containers: [c('a', { x: 1 }), c('d', { x: 4 })] }),
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }], containers: [c('b'), c('c'), { name: 'a', $patch: 'delete' }] } },
      pod({ containers: [c('d', { x: 4 }), c('b'), c('c')] })],
    ['interleaves server-only items after a deletion', pod({ containers: [c('a'), c('b', { x: 2 }), c('d', { x: 4 })] }),
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'c' }], containers: [c('c'), { name: 'a', $patch: 'delete' }] } },
      pod({ containers: [c('b', { x: 2 }), c('d', { x: 4 }), c('c')] })],
    ['orders a primitive list around server-only items', pod({}, { finalizers: ['1', '4', '2'] }),
      { metadata: { '$setElementOrder/finalizers': ['3', '1', '2'], finalizers: ['3'] } },
      pod({}, { finalizers: ['3', '1', '4', '2'] })],
    ['adds, deletes and orders a primitive list', pod({}, { finalizers: ['1', '2', '3'] }),
      { metadata: { '$setElementOrder/finalizers': ['4', '2', '1'], finalizers: ['4'], '$deleteFromPrimitiveList/finalizers': ['3'] } },
      pod({}, { finalizers: ['4', '2', '1'] })],
    ['keeps patch order for items it names', pod({ containers: [c('1'), c('2', { v: 'b' }), c('3')] }),
      { spec: { containers: [c('3', { v: 'c' }), c('1', { v: 'a' })] } },
      pod({ containers: [c('2', { v: 'b' }), c('3', { v: 'c' }), c('1', { v: 'a' })] })],
    ['deletes every duplicate of a deleted key', pod({ containers: [c('1'), c('1'), c('2', { v: 'a' }), c('3'), c('3')] }),
      { spec: { containers: [{ name: '1', $patch: 'delete' }, { name: '3', $patch: 'delete' }] } },
      pod({ containers: [c('2', { v: 'a' })] })],
    ['empties a merging list with a lone $patch: replace', pod({ containers: [c('a'), c('b')] }),
      { spec: { containers: [{ $patch: 'replace' }] } }, pod({ containers: [] })],
    ['clears fields not retained ($retainKeys)', pod({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } }),
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      pod({ strategy: { type: 'Recreate' } })],
    ['retains keys inside merged list items', pod({ volumes: [{ name: 'v', emptyDir: {} }, { name: 'w', configMap: { name: 'cm' } }] }),
      { spec: { volumes: [{ name: 'v', $retainKeys: ['name', 'hostPath'], hostPath: { path: '/x' } }] } },
      pod({ volumes: [{ name: 'v', hostPath: { path: '/x' } }, { name: 'w', configMap: { name: 'cm' } }] })],
    ['deletes with null and ignores null for missing keys', pod({}, { labels: { a: '1', b: '2' } }),
      { metadata: { labels: { a: null, c: null, d: '4' } } }, pod({}, { labels: { b: '2', d: '4' } })],
    ['drops nulls inside a newly added value', pod({}),
      { spec: { nodeSelector: { x: null, y: '1' } } }, pod({ nodeSelector: { y: '1' } })],
    ['drops directives from a newly added list', pod({}),
      { spec: { initContainers: [{ name: 'x', $patch: 'delete' }, c('y', { env: [{ name: 'E', $patch: 'delete' }] })] } },
      pod({ initContainers: [c('y', { env: [] })] })],
    ['replaces on a type change', pod({ nodeSelector: { a: '1' } }), { spec: { nodeSelector: 'x' } }, pod({ nodeSelector: 'x' })],
    ['merges numeric merge keys', pod({ containers: [c('a', { ports: [{ containerPort: 80, protocol: 'TCP' }] })] }),
      { spec: { containers: [c('a', { ports: [{ containerPort: 80, name: 'http' }] })] } },
      pod({ containers: [c('a', { ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] })] })],
    ['merges owner references by uid', pod({}, { ownerReferences: [{ uid: 'u1', name: 'a' }] }),
      { metadata: { ownerReferences: [{ uid: 'u2', name: 'b' }] } },
      pod({}, { ownerReferences: [{ uid: 'u2', name: 'b' }, { uid: 'u1', name: 'a' }] })],
    ['changes nothing for a null patch', pod({ a: 1 }), null, pod({ a: 1 })],
    ['changes nothing for an empty patch', pod({ a: 1 }), {}, pod({ a: 1 })],
    ['accepts a raw body', pod({}), '{"metadata":{"labels":{"a":"b"}}}', pod({}, { labels: { a: 'b' } })],
  ];
  for (const [name, original, patch, want] of cases) {
    it(name, () => {
      const copy = JSON.parse(JSON.stringify(original)) as Doc;
      const patchCopy = JSON.parse(JSON.stringify(patch)) as unknown;
      expect(applyStrategicMergePatch(original, patch, podSchema)).to.deep.equal(want);
      expect(original).to.deep.equal(copy);
      expect(patch).to.deep.equal(patchCopy);
    });
  }

  describe('without a schema', () => {
    it('merges maps recursively and replaces lists', () => {
      const original = { spec: { containers: [c('a'), c('b')], selector: { a: '1' } } };
      const out = applyStrategicMergePatch(original, { spec: { containers: [c('c')], selector: { b: '2', a: null } } });
      expect(out).to.deep.equal({ spec: { containers: [c('c')], selector: { b: '2' } } });
    });

    it('still honours directives', () => {
      const original = { spec: { containers: [c('a'), c('b')], m: { x: 1, y: 2 }, f: ['a', 'b'] } };
      const out = applyStrategicMergePatch(original, {
        spec: { m: { $patch: 'replace', z: 3 }, '$deleteFromPrimitiveList/f': ['a'], n: { $retainKeys: ['k'], k: 1 } },
      });
      expect(out).to.deep.equal({ spec: { containers: [c('a'), c('b')], m: { z: 3 }, f: ['b'], n: { k: 1 } } });
    });
  });

  const errorCases: Array<[string, Doc, unknown, number, string, string]> = [
    ['retainKeys not matching the patch', pod({ strategy: { type: 'A' } }),
      { spec: { strategy: { $retainKeys: ['type'], type: 'B', rollingUpdate: { maxSurge: 1 } } } },
      400, 'BadRequest', 'invalid patch format of retainKeys'],
    ['retainKeys that is not a list', pod({ strategy: { type: 'A' } }),
      { spec: { strategy: { $retainKeys: 'type' } } }, 400, 'BadRequest', 'invalid patch format of retainKeys'],
    ['a deletion list key without a field', pod({}),
      { metadata: { $deleteFromPrimitiveList: ['a'] } }, 400, 'BadRequest', 'invalid patch format of primitive list'],
    ['an order key without a field', pod({}),
      { metadata: { $setElementOrder: ['a'] } }, 400, 'BadRequest', 'invalid patch format of setElementOrder list'],
    ['a list of lists', pod({ matrix: [[1]] }), { spec: { matrix: [[2]] } },
      422, 'Invalid', 'the server rejected our request due to an error in our request'],
    ['$patch: merge in a list', pod({ containers: [c('a')] }), { spec: { containers: [{ $patch: 'merge' }] } },
      400, 'BadRequest', 'merging lists cannot yet be specified in the patch'],
    ['an unknown $patch in a list', pod({ containers: [c('a')] }), { spec: { containers: [{ name: 'a', $patch: 'zap' }] } },
      400, 'BadRequest', 'unknown patch type: zap in map: map[$patch:zap name:a]'],
    ['an unknown $patch in a map', pod({ affinity: {} }), { spec: { affinity: { $patch: 'merge' } } },
      400, 'BadRequest', 'unknown patch type: merge in map: map[$patch:merge]'],
    ['a list item without its merge key', pod({ containers: [c('a')] }), { spec: { containers: [{ image: 'x' }] } },
      400, 'BadRequest', 'map: map[image:x] does not contain declared merge key: name'],
    ['a delete directive without the merge key', pod({ containers: [c('a')] }), { spec: { containers: [{ $patch: 'delete' }] } },
      400, 'BadRequest', 'map: map[$patch:delete] does not contain declared merge key: name'],
    ['mixed element types', pod({}, { finalizers: ['a'] }), { metadata: { finalizers: [1] } },
      400, 'BadRequest', 'list element types are not identical: [[a] [1]]'],
    ['a merge list of maps without a merge key', pod({ plainList: [{ name: 'a' }] }), { spec: { plainList: [{ name: 'b' }] } },
      400, 'BadRequest', 'cannot merge lists without merge key for struct'],
    ['an order list contradicting the patch', pod({}, { finalizers: ['a', 'b'] }),
      { metadata: { '$setElementOrder/finalizers': ['a'], finalizers: ['b'] } },
      400, 'BadRequest', "The order in patch list:\n[b]\n doesn't match $setElementOrder list:\n[a]\n"],
    ['a patch list out of $setElementOrder order', pod({}),
      { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }], containers: [c('a'), c('b')] } },
      400, 'BadRequest', "The order in patch list:\n[map[name:a] map[name:b]]\n doesn't match $setElementOrder list:\n[map[name:b] map[name:a]]\n"],
    ['an order list that is not a list', pod({}, { finalizers: ['a'] }),
      { metadata: { '$setElementOrder/finalizers': 'a' } }, 400, 'BadRequest', 'expected a []interface {}, but received a string'],
    ['an unknown patch strategy', pod({ bad: ['a'] }), { spec: { bad: ['b'] } }, 400, 'BadRequest', 'unexpected patch strategy: [merge replace]'],
    ['a body that is not an object', pod({}), '[1]', 400, 'BadRequest', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a decoded string', pod({}), 'x', 400, 'BadRequest', "invalid character 'x' looking for beginning of value"],
    ['malformed JSON', pod({}), '{"spec":', 400, 'BadRequest', 'unexpected end of JSON input'],
  ];
  for (const [name, original, patch, code, reason, message] of errorCases) {
    it(`fails on ${name}`, () => {
      const err = failure(() => applyStrategicMergePatch(original, patch, podSchema));
      expect(err.code).to.equal(code);
      expect(err.reason).to.equal(reason);
      expect(err.message).to.equal(message);
    });
  }
});
