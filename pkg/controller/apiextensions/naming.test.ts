import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { calculateNames, sameNames } from './naming.js';

function crd(name: string, specNames: Record<string, unknown>, accepted?: Record<string, unknown>, group = 'bravo.com'): KubeObject {
  return { metadata: { name: `${name}.${group}` }, spec: { group, names: specNames },
    status: { acceptedNames: accepted ?? { plural: '', kind: '' }, conditions: null } };
}

const requested = { plural: 'alfa', singular: 'delta-singular', kind: 'EchoKind', listKind: 'EchoKindList', shortNames: ['golf', 'hotel'] };

describe('CRD naming', () => {
  it('accepts every name nobody in the group holds', () => {
    const c = crd('alfa', requested);
    const r = calculateNames(c, [c, crd('india', { plural: 'india' }, { plural: 'india', kind: 'EchoKind' }, 'other.com')]);
    expect(r.acceptedNames).to.deep.equal({ plural: 'alfa', singular: 'delta-singular', shortNames: ['golf', 'hotel'], kind: 'EchoKind', listKind: 'EchoKindList' });
    expect(r.namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    expect(r.established).to.deep.equal({ type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' });
  });

  it('refuses names another CRD of the group accepted, keeping the rest', () => {
    const c = crd('alfa', requested);
    const other = crd('india', { plural: 'india' }, { plural: 'india', singular: 'indias', shortNames: ['hotel', 'golf'], kind: '', listKind: 'EchoKind' });
    const r = calculateNames(c, [c, other]);
    expect(r.acceptedNames).to.deep.equal({ plural: 'alfa', singular: 'delta-singular', kind: '', listKind: 'EchoKindList' });
    expect(r.namesAccepted).to.deep.equal({ type: 'NamesAccepted', status: 'False', reason: 'KindConflict', message: '"EchoKind" is already in use' });
    const shorts = calculateNames(crd('alfa', { ...requested, kind: 'Other', listKind: 'OtherList' }), [other]);
    expect(shorts.namesAccepted).to.include({ reason: 'ShortNamesConflict', message: '["golf" is already in use, "hotel" is already in use]' });
    expect(shorts.established).to.include({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  });

  it('keeps the names a CRD already holds even when others list them', () => {
    const c = crd('alfa', requested, { ...requested });
    expect(calculateNames(c, [c, crd('india', { plural: 'india' }, { plural: 'india', kind: 'X', shortNames: ['golf'] })]).namesAccepted.status).to.equal('True');
    expect(sameNames({ plural: 'a', kind: 'A', shortNames: [] }, { plural: 'a', kind: 'A' })).to.equal(true);
  });
});
