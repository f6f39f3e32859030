import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { AutoUpdateAnnotation, mandatoryPriorityLevels, suggestedFlowSchemas } from '../../registry/flowcontrol/bootstrap.js';
import { parseGoBool, revise } from './ensurer.js';
import { danglingCondition, withDangling } from './status.js';

const withMeta = (o: KubeObject, meta: Partial<KubeObject['metadata']>, spec?: unknown): KubeObject =>
  ({ ...structuredClone(o), metadata: { ...o.metadata, ...meta }, ...(spec ? { spec } : {}) });

describe('APF bootstrap configuration rules', () => {
  const suggested = suggestedFlowSchemas.find((o) => o.metadata.name === 'global-default')!;
  const edited = { ...structuredClone(suggested.spec as object), matchingPrecedence: 9800 };

  it('parses the annotation as Go\'s ParseBool', () => {
    expect(['1', 't', 'TRUE', 'True'].map(parseGoBool)).to.deep.equal([true, true, true, true]);
    expect(['0', 'F', 'false'].map(parseGoBool)).to.deep.equal([false, false, false]);
    expect(parseGoBool('yes')).to.equal(undefined);
  });

  it('leaves an unchanged object alone', () => {
    expect(revise(withMeta(suggested, { generation: 1 }), suggested, false)).to.equal(undefined);
  });

  it('updates a suggested object only while auto-update is on', () => {
    const on = withMeta(suggested, { generation: 4, annotations: { [AutoUpdateAnnotation]: 'true' } }, edited);
    expect(revise(on, suggested, false)).to.deep.equal({ spec: suggested.spec, autoUpdate: true });
    const off = withMeta(suggested, { generation: 4, annotations: { [AutoUpdateAnnotation]: 'false' } }, edited);
    expect(revise(off, suggested, false)).to.equal(undefined);
  });

  it('without a readable annotation, an edited suggested object is kept and marked false; an unedited one is updated', () => {
    const editedNoAnn = withMeta(suggested, { generation: 2, annotations: { [AutoUpdateAnnotation]: 'maybe' } }, edited);
    expect(revise(editedNoAnn, suggested, false)).to.deep.equal({ autoUpdate: false });
    const fresh = withMeta(suggested, { generation: 1, annotations: {} }, edited);
    expect(revise(fresh, suggested, false)).to.deep.equal({ spec: suggested.spec, autoUpdate: true });
  });

  it('always restores a mandatory object and its annotation, keeping the exempt level\'s exempt settings', () => {
    const exempt = mandatoryPriorityLevels.find((o) => o.metadata.name === 'exempt')!;
    const tuned = withMeta(exempt, { generation: 3, annotations: { [AutoUpdateAnnotation]: 'false' } },
      { type: 'Exempt', exempt: { nominalConcurrencyShares: 5, lendablePercent: 10 } });
    expect(revise(tuned, exempt, true)).to.deep.equal({ autoUpdate: true });
    const noExempt = withMeta(exempt, { generation: 3, annotations: { [AutoUpdateAnnotation]: 'true' } }, { type: 'Exempt' });
    expect(revise(noExempt, exempt, true)).to.deep.equal({ spec: exempt.spec, autoUpdate: true });
  });

  it('computes the Dangling condition with upstream\'s reasons and messages', () => {
    const found = danglingCondition(suggested, () => true);
    expect(found).to.deep.equal({ type: 'Dangling', status: 'False', reason: 'Found',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists' });
    const missing = danglingCondition(suggested, () => false);
    expect(missing.message).to.equal('This FlowSchema references the PriorityLevelConfiguration object named "global-default" but there is no such object');
    const status = withDangling(suggested, found, '2024-01-01T00:00:00Z')!;
    expect(status).to.deep.equal({ conditions: [{ ...found, lastTransitionTime: '2024-01-01T00:00:00Z' }] });
    expect(withDangling({ ...suggested, status }, found, 'later')).to.equal(undefined);
  });
});
