// What a conversion webhook may and may not do to metadata, in upstream's words.
import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { identityChange, MetadataError, restoreObjectMeta } from './metadata.js';

const original: KubeObject = {
  apiVersion: 'stable.example.com/v1', kind: 'Widget',
  metadata: { name: 'w1', namespace: 'ns', uid: 'u1', resourceVersion: '7', generation: 2, labels: { a: '1' }, annotations: { note: 'x' } },
  spec: { hostPort: 'h:1' },
};

function failure(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    expect(err).to.be.instanceOf(MetadataError);
    return (err as Error).message;
  }
  throw new Error('expected a MetadataError');
}

describe('conversion metadata checks', () => {
  it('takes labels and annotations from the webhook and everything else from the original', () => {
    const answer = {
      apiVersion: 'stable.example.com/v2', kind: 'Widget',
      metadata: { name: 'w1', namespace: 'ns', uid: 'u1', resourceVersion: '99', generation: 5, finalizers: ['f'], labels: { a: '1', b: '2' } },
      spec: { host: 'h', port: 1 },
    };
    const out = restoreObjectMeta(original, answer);
    expect(out).to.deep.equal({
      apiVersion: 'stable.example.com/v2', kind: 'Widget',
      // annotations are absent from the answer, so they are dropped, as upstream does.
      metadata: { name: 'w1', namespace: 'ns', uid: 'u1', resourceVersion: '7', generation: 2, labels: { a: '1', b: '2' } },
      spec: { host: 'h', port: 1 },
    });
    expect(original.metadata.labels).to.deep.equal({ a: '1' });
  });

  it('refuses unusable metadata, labels and annotations', () => {
    const withMeta = (metadata: unknown) => ({ apiVersion: 'v', kind: 'Widget', metadata });
    expect(failure(() => restoreObjectMeta(original, { kind: 'Widget' }))).to.equal('missing metadata in converted object');
    expect(failure(() => restoreObjectMeta(original, withMeta('m')))).to.equal('invalid metadata of type string in converted object');
    expect(failure(() => restoreObjectMeta(original, withMeta({ labels: ['x'] })))).to.equal('invalid metadata.labels of type []interface {} in converted object');
    expect(failure(() => restoreObjectMeta(original, withMeta({ labels: { n: 3 } })))).to.equal('metadata.labels[n] must be a string, but is int64 in converted object');
    expect(failure(() => restoreObjectMeta(original, withMeta({ labels: { a: 'not valid!' } }))))
      .to.match(/^metadata\.labels: Invalid value: "not valid!": a valid label must be an empty string or consist of alphanumeric characters/);
    expect(failure(() => restoreObjectMeta(original, withMeta({ annotations: { 'bad key': 'v' } }))))
      .to.match(/^metadata\.annotation: Invalid value: "bad key": name part must consist of alphanumeric characters/);
    // Unchanged labels are not validated again.
    const odd: KubeObject = { ...original, metadata: { ...original.metadata, labels: { a: 'not valid!' } } };
    expect(restoreObjectMeta(odd, withMeta({ labels: { a: 'not valid!' } })).metadata.labels).to.deep.equal({ a: 'not valid!' });
  });

  it('names the first identity field the webhook changed', () => {
    const answer = (meta: Record<string, unknown>, kind = 'Widget') => ({ kind, metadata: { ...original.metadata, ...meta } });
    expect(identityChange(original, answer({}))).to.equal(undefined);
    expect(identityChange(original, answer({ name: 'w2' }))).to.equal('must have the same name: w1 != w2');
    expect(identityChange(original, answer({ namespace: 'other' }))).to.equal('must have the same namespace: ns != other');
    expect(identityChange(original, answer({ uid: 'u2' }))).to.equal('must have the same UID: u1 != u2');
    expect(identityChange(original, answer({}, 'Gadget'))).to.equal('must have the same kind: Widget != Gadget');
  });
});
