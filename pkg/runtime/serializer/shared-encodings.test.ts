import { expect } from 'chai';
import { markShared, recordView, sharedEncoding } from './shared-encodings.js';

describe('shared encodings (bytes of the watch cache\'s objects, computed once)', () => {
  const stored = () => markShared({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } } as Record<string, unknown>);
  const view = (source: Record<string, unknown>) => {
    const { apiVersion: _a, kind: _k, ...rest } = source;
    const v: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', ...rest };
    recordView(v, source);
    return v;
  };

  it('encodes a view of a shared object once, and gives every later view the same bytes', () => {
    const source = stored();
    let calls = 0;
    const encode = (v: Record<string, unknown>) => { calls++; return JSON.stringify(v); };
    const first = sharedEncoding(view(source), 'json', encode);
    const second = sharedEncoding(view(source), 'json', encode);
    expect(first?.toString()).to.equal('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}');
    expect(second).to.equal(first);
    expect(calls).to.equal(1);
    // Another output type has bytes of its own.
    expect(sharedEncoding(view(source), 'protobuf', () => new Uint8Array([1, 2]))).to.deep.equal(Buffer.from([1, 2]));
  });

  it('does not reuse bytes for a view whose members were replaced, added or removed, nor for unshared objects', () => {
    const source = stored();
    const encode = (v: Record<string, unknown>) => JSON.stringify(v);
    sharedEncoding(view(source), 'json', encode);
    const replaced = view(source);
    replaced.data = { k: 'changed' };
    expect(sharedEncoding(replaced, 'json', encode)).to.equal(undefined);
    const added = view(source) as Record<string, unknown>;
    added.extra = 1;
    expect(sharedEncoding(added, 'json', encode)).to.equal(undefined);
    const removed = view(source) as Record<string, unknown>;
    delete removed.data;
    expect(sharedEncoding(removed, 'json', encode)).to.equal(undefined);
    // A copy of a view carries its link along (spread, Object.assign), and is checked as the view is.
    const copied = { ...view(source), data: { k: 'copied' } };
    expect(sharedEncoding(copied, 'json', encode)?.toString()).to.equal(undefined);
    const assigned = Object.assign({}, view(source), { metadata: { name: 'other' } });
    expect(sharedEncoding(assigned, 'json', encode)).to.equal(undefined);
    expect(sharedEncoding({ ...view(source) }, 'json', encode)?.toString()).to.include('"data":{"k":"v"}');
    const plain = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' } };
    recordView(plain, { metadata: plain.metadata });
    expect(sharedEncoding(plain, 'json', encode)).to.equal(undefined);
  });
});
