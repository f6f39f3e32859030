import { expect } from 'chai';
import type { KubeObject } from '../../../runtime/object.js';
import { bindingTable, policyTable } from './table.js';

const meta = { name: 'x', creationTimestamp: new Date().toISOString() };

describe('validatingadmissionpolicies tables', () => {
  it('prints NAME VALIDATIONS PARAMKIND AGE for policies', () => {
    expect(policyTable.columns.map((c) => c.name)).to.deep.equal(['Name', 'Validations', 'ParamKind', 'Age']);
    const cells = (spec: Record<string, unknown>) => policyTable.cells({ metadata: meta, spec } as KubeObject).slice(0, 3);
    expect(cells({ validations: [{}, {}] })).to.deep.equal(['x', 2, '<unset>']);
    expect(cells({ paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } })).to.deep.equal(['x', 0, 'v1/ConfigMap']);
  });

  it('prints NAME POLICYNAME PARAMREF AGE for bindings, as upstream\'s printer renders paramRef', () => {
    expect(bindingTable.columns.map((c) => c.name)).to.deep.equal(['Name', 'PolicyName', 'ParamRef', 'Age']);
    const cells = (paramRef?: Record<string, unknown>) => bindingTable.cells({ metadata: meta, spec: { policyName: 'p', paramRef } } as KubeObject).slice(0, 3);
    expect(cells()).to.deep.equal(['x', 'p', '<unset>']);
    expect(cells({ name: 'cm', namespace: 'ns' })).to.deep.equal(['x', 'p', 'ns/cm']);
    expect(cells({ name: 'cm' })).to.deep.equal(['x', 'p', '*/cm']);
    expect(cells({ selector: { matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['u', 'v'] }] } })[2]).to.equal(
      '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[u v],},},}');
  });
});
