import { expect } from 'chai';
import { encodingsSurelyDiffer } from './differ.js';
import { encodeObject } from './envelope.js';
import { messageForKind } from './schema.js';

type Obj = Record<string, unknown>;
const cmMessage = messageForKind('v1', 'ConfigMap')!;
const podMessage = messageForKind('v1', 'Pod')!;
const cm = (data: Obj, meta: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', uid: 'u', ...meta }, data });
const pod = (containers: Obj[]): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers } });
const bytesDiffer = (a: Obj, b: Obj): boolean => !encodeObject(a).equals(encodeObject(b));

describe('encodingsSurelyDiffer: different bytes told without encoding', () => {
  it('says so for a string both objects set differently: a map value, a nested field, a list item', () => {
    const pairs: Array<[string, Obj, Obj]> = [
      [cmMessage, cm({ k: '1', payload: 'x' }), cm({ k: '2', payload: 'x' })],
      [cmMessage, cm({}, { labels: { a: 'b' } }), cm({}, { labels: { a: 'c' } })],
      [cmMessage, cm({}, { uid: 'u1' }), cm({}, { uid: 'u2' })],
      [cmMessage, cm({}, { finalizers: ['a', 'b'] }), cm({}, { finalizers: ['a', 'c', 'd'] })],
      [podMessage, pod([{ name: 'c', image: 'i1' }]), pod([{ name: 'c', image: 'i2' }])],
    ];
    for (const [message, a, b] of pairs) {
      expect(encodingsSurelyDiffer(message, a, b), JSON.stringify([a, b])).to.equal(true);
      expect(bytesDiffer(a, b)).to.equal(true);
    }
  });

  it('says nothing where bytes may be equal or it cannot tell', () => {
    const pairs: Array<[string, Obj, Obj]> = [
      // Equal objects, and what the encoding drops or normalizes.
      [cmMessage, cm({ k: '1' }), cm({ k: '1' })],
      [cmMessage, cm({}, { labels: {} }), cm({})],
      [cmMessage, cm({ k: 'a\uD800' }), cm({ k: 'a\uFFFD' })],
      // Differences it does not look at: a key on one side only, numbers, times.
      [cmMessage, cm({ k: '1' }), cm({ j: '1' })],
      [cmMessage, cm({}, { generation: 1 }), cm({}, { generation: 2 })],
      [cmMessage, cm({}, { creationTimestamp: '2026-01-01T00:00:00Z' }), cm({}, { creationTimestamp: '2026-01-01T00:00:01Z' })],
    ];
    for (const [message, a, b] of pairs) expect(encodingsSurelyDiffer(message, a, b), JSON.stringify([a, b])).to.equal(false);
    expect(bytesDiffer(cm({}, { labels: {} }), cm({}))).to.equal(false);
    expect(bytesDiffer(cm({ k: 'a\uD800' }), cm({ k: 'a\uFFFD' }))).to.equal(false);
  });

  it('leaves out the fields it is told to', () => {
    const ignored = new Map([['k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta', new Set(['resourceVersion'])]]);
    const a = cm({ k: '1' }, { resourceVersion: '5' });
    const b = cm({ k: '1' }, { resourceVersion: '6' });
    expect(encodingsSurelyDiffer(cmMessage, a, b)).to.equal(true);
    expect(encodingsSurelyDiffer(cmMessage, a, b, ignored)).to.equal(false);
  });
});
