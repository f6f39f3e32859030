import { expect } from 'chai';
import { parseFieldSelector } from '../../apis/meta/fields.js';
import { parseLabelSelector } from '../../apis/meta/labels.js';
import type { KubeObject } from '../../runtime/object.js';
import { matcherFor } from './predicate.js';
import type { StoreDef } from './store-def.js';

describe('matcherFor', () => {
  let fieldReads = 0;
  const def = {
    group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true,
    selectableFields: (o: Record<string, unknown>) => {
      fieldReads++;
      return { 'spec.nodeName': String((o.spec as { nodeName?: string } | undefined)?.nodeName ?? '') };
    },
  } as unknown as StoreDef;
  const pod = (name: string, app: string | undefined, node: string): KubeObject =>
    ({ metadata: { name, namespace: 'ns', ...(app ? { labels: { app } } : {}) }, spec: { nodeName: node } }) as KubeObject;
  const pods = [pod('a', 'web', 'n1'), pod('b', 'db', 'n1'), pod('c', undefined, 'n2'), pod('d', 'web', 'n2')];
  const names = (label: string, field: string) => {
    fieldReads = 0;
    const m = matcherFor(def, { label: parseLabelSelector(label), field: parseFieldSelector(field) });
    return pods.filter(m).map((p) => p.metadata.name);
  };

  it('matches labels, fields, both, or everything', () => {
    expect(names('', '')).to.deep.equal(['a', 'b', 'c', 'd']);
    expect(names('app=web', '')).to.deep.equal(['a', 'd']);
    expect(names('app', '')).to.deep.equal(['a', 'b', 'd']);
    expect(names('', 'spec.nodeName=n2')).to.deep.equal(['c', 'd']);
    expect(names('app=web', 'spec.nodeName=n2')).to.deep.equal(['d']);
    expect(names('app=web', 'metadata.name!=a')).to.deep.equal(['d']);
  });

  it('reads no selectable fields for a selection by labels alone', () => {
    names('app=web', '');
    expect(fieldReads).to.equal(0);
    names('app=web', 'spec.nodeName=n2');
    expect(fieldReads).to.be.greaterThan(0);
  });
});
