import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { FieldIndexes, valueReader } from './field-index.js';

const pod = (name: string, node: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: node } });

describe('storage/cacher/field-index', () => {
  it("reads a field's value once per object however often it is asked (the ring's replay asks per watch)", () => {
    let calls = 0;
    const read = valueReader({ field: 'spec.nodeName', value: 'n1', extract: (o) => { calls++; return (o.spec as { nodeName: string }).nodeName; } })!;
    const a = pod('a', 'n1');
    const b = pod('b', 'n2');
    for (let i = 0; i < 5; i++) {
      expect(read('/pods/default/a', a)).to.equal('n1');
      expect(read('/pods/default/b', b)).to.equal('n2');
    }
    expect(calls).to.equal(2);
    // Another object (a new version of a) is read afresh.
    expect(read('/pods/default/a', pod('a', 'n3'))).to.equal('n3');
    expect(calls).to.equal(3);
  });

  it('reads the name from the key and keeps the index of a field as objects change', () => {
    const indexes = new FieldIndexes();
    expect(indexes.reader({ field: 'metadata.name', value: 'a' })!('/pods/default/a', pod('x', 'n1'))).to.equal('a');
    const f = { field: 'spec.nodeName', value: 'n1', extract: (o: KubeObject) => (o.spec as { nodeName: string }).nodeName };
    const a1 = pod('a', 'n1');
    const objects = new Map([['/pods/default/a', a1], ['/pods/default/b', pod('b', 'n2')]]);
    expect([...indexes.keys(f, objects)!]).to.deep.equal(['/pods/default/a']);
    const a2 = pod('a', 'n2');
    indexes.update('/pods/default/a', a1, a2);
    expect([...indexes.keys(f, objects)!]).to.deep.equal([]);
    expect([...indexes.keys({ ...f, value: 'n2' }, objects)!].sort()).to.deep.equal(['/pods/default/a', '/pods/default/b']);
  });
});
