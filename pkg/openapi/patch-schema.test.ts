import { expect } from 'chai';
import { patchSchemaFor, patchSchemaForDefinition } from './patch-schema.js';

describe('patchSchemaFor', () => {
  it('walks a Pod to its containers list with merge key and strategy', () => {
    const pod = patchSchemaFor('', 'v1', 'Pod');
    expect(pod?.isStruct).to.equal(true);
    const containers = pod?.field('spec')?.field('containers');
    expect(containers).to.include({ type: 'array', patchStrategy: 'merge', patchMergeKey: 'name' });
    const container = containers?.items();
    expect(container?.isStruct).to.equal(true);
    expect(container?.field('ports')).to.include({ patchMergeKey: 'containerPort', listType: 'map' });
    expect(container?.field('ports')?.listMapKeys).to.deep.equal(['containerPort', 'protocol']);
    expect(container?.field('image')).to.include({ type: 'string' });
    expect(container?.field('nope')).to.equal(undefined);
  });

  it('reports maps: value schema through items() and field(), granularity from map-type', () => {
    const spec = patchSchemaFor('', 'v1', 'Pod')?.field('spec');
    const nodeSelector = spec?.field('nodeSelector');
    expect(nodeSelector).to.include({ type: 'object', mapType: 'atomic', isStruct: false });
    expect(nodeSelector?.items()).to.include({ type: 'string' });
    expect(nodeSelector?.field('any-key')).to.include({ type: 'string' });
    const labels = patchSchemaFor('', 'v1', 'ConfigMap')?.field('metadata')?.field('labels');
    expect(labels?.type).to.equal('object');
    expect(labels?.mapType).to.equal(undefined);
  });

  it('reports struct-level atomicity and retainKeys strategies', () => {
    const selector = patchSchemaFor('apps', 'v1', 'Deployment')?.field('spec')?.field('selector');
    expect(selector).to.include({ isStruct: true, mapType: 'atomic' });
    const strategy = patchSchemaFor('apps', 'v1', 'Deployment')?.field('spec')?.field('strategy');
    expect(strategy?.patchStrategy).to.equal('retainKeys');
    const volumes = patchSchemaFor('', 'v1', 'Pod')?.field('spec')?.field('volumes');
    expect(volumes).to.include({ patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' });
  });

  it('lists of scalars carry their markers', () => {
    const finalizers = patchSchemaFor('', 'v1', 'ConfigMap')?.field('metadata')?.field('finalizers');
    expect(finalizers).to.include({ type: 'array', patchStrategy: 'merge' });
    expect(finalizers?.items()?.type).to.equal('string');
    const verbs = patchSchemaFor('rbac.authorization.k8s.io', 'v1', 'Role')?.field('rules')?.items()?.field('verbs');
    expect(verbs).to.include({ type: 'array', listType: undefined });
    const conditions = patchSchemaFor('', 'v1', 'Pod')?.field('status')?.field('conditions');
    expect(conditions).to.include({ patchMergeKey: 'type', patchStrategy: 'merge' });
  });

  it('is undefined for unknown kinds and answers by definition name too', () => {
    expect(patchSchemaFor('example.com', 'v1', 'Widget')).to.equal(undefined);
    expect(patchSchemaForDefinition('io.k8s.api.rbac.v1.PolicyRule')?.field('verbs')?.type).to.equal('array');
  });
});
