import { expect } from 'chai';
import { fieldErrorMessage } from '../../runtime/errors.js';
import type { ObjectMeta } from '../../runtime/object.js';
import { nameIsDNSSubdomain, validatePathSegmentName } from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';
import { validateLabelSelector } from './labelselector.js';

const render = (errs: Parameters<typeof fieldErrorMessage>[0][]): string[] => errs.map((e) => fieldErrorMessage(e));
const ns = { namespaced: true, nameValidator: nameIsDNSSubdomain };
const cluster = { namespaced: false, nameValidator: nameIsDNSSubdomain };

describe('validateObjectMeta', () => {
  const cases: Array<[string, ObjectMeta, typeof ns & { standardFinalizers?: boolean }, string[]]> = [
    ['valid', { name: 'a', namespace: 'default', labels: { 'app.kubernetes.io/name': 'x' } }, ns, []],
    ['no name', { namespace: 'default' }, ns, ['metadata.name: Required value: name or generateName is required']],
    ['generateName alone still needs the generated name', { generateName: 'web-', namespace: 'default' }, ns,
      ['metadata.name: Required value: name or generateName is required']],
    ['bad name', { name: 'A', namespace: 'default' }, ns, [
      'metadata.name: Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')']],
    ['namespace required', { name: 'a' }, ns, ['metadata.namespace: Required value']],
    ['namespace forbidden', { name: 'a', namespace: 'x' }, cluster, ['metadata.namespace: Forbidden: not allowed on this type']],
    ['negative generation', { name: 'a', generation: -1 }, cluster,
      ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']],
    ['bad label value', { name: 'a', labels: { k: 'a b' } }, cluster, [
      'metadata.labels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')']],
    ['annotation keys ignore case', { name: 'a', annotations: { 'Example.COM/Key': 'v' } }, cluster, []],
    ['annotations too large', { name: 'a', annotations: { k: 'x'.repeat(256 * 1024) } }, cluster,
      ['metadata.annotations: Too long: must have at most 262144 bytes']],
    ['owner reference fields', { name: 'a', ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] }, cluster, [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty']],
    ['two controllers', { name: 'a', ownerReferences: [
      { apiVersion: 'v1', kind: 'A', name: 'x', uid: '1', controller: true },
      { apiVersion: 'v1', kind: 'B', name: 'y', uid: '2', controller: true }] }, cluster,
    ['metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"x","uid":"1","controller":true},{"apiVersion":"v1","kind":"B","name":"y","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for A/x and B/y']],
    ['orphan and foreground', { name: 'a', finalizers: ['orphan', 'foregroundDeletion'] }, cluster,
      ['metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set']],
    ['unqualified finalizer (core rule)', { name: 'a', finalizers: ['custom'] }, { ...cluster, standardFinalizers: true },
      ['metadata.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified']],
    ['unqualified finalizer (generic rule)', { name: 'a', finalizers: ['custom'] }, cluster, []],
    ['managed fields operation', { name: 'a', managedFields: [{ manager: 'm', operation: 'Bad' as 'Apply' }] }, cluster,
      ['metadata.managedFields[0].operation: Invalid value: "Bad": must be `Apply` or `Update`']],
    ['managed fields manager with a control character', { name: 'a', managedFields: [
      { manager: 'a\u0007b', operation: 'Update' }, { manager: 'plain ascii ~', operation: 'Update' }, { manager: 'k\u00fcbectl', operation: 'Update' }] }, cluster,
    ['metadata.managedFields[0].manager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)']],
    // Upstream's ValidateFieldManager: one error per character unicode.IsPrint refuses, at its byte position.
    ['managed fields manager with several control characters', { name: 'a', managedFields: [
      { manager: '\u0001é\tx\u00a0', operation: 'Update' }] }, cluster,
    ['metadata.managedFields[0].manager: Invalid value: "\\x01é\\tx\\u00a0": invalid character U+0001 (at position 0)',
      'metadata.managedFields[0].manager: Invalid value: "\\x01é\\tx\\u00a0": invalid character U+0009 (at position 3)',
      'metadata.managedFields[0].manager: Invalid value: "\\x01é\\tx\\u00a0": invalid character U+00A0 (at position 5)']],
  ];
  for (const [name, meta, opts, want] of cases) {
    it(name, () => expect(render(validateObjectMeta(meta, opts))).to.deep.equal(want));
  }

  it('checks generateName with the prefix rule', () => {
    expect(render(validateObjectMeta({ generateName: 'a/', name: 'a/x' }, { namespaced: false, nameValidator: validatePathSegmentName })))
      .to.deep.equal(['metadata.generateName: Invalid value: "a/": may not contain \'/\'',
        'metadata.name: Invalid value: "a/x": may not contain \'/\'']);
  });
});

describe('validateObjectMetaUpdate', () => {
  const old: ObjectMeta = { name: 'a', namespace: 'ns', uid: 'u1', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z', generation: 2 };
  it('accepts an unchanged object', () => {
    expect(validateObjectMetaUpdate({ ...old }, old)).to.deep.equal([]);
  });
  it('reports immutable fields and missing resourceVersion', () => {
    const errs = validateObjectMetaUpdate({ ...old, namespace: 'other', uid: 'u2', resourceVersion: '', generation: 1 }, old);
    expect(render(errs)).to.deep.equal([
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.namespace: Invalid value: "other": field is immutable',
      'metadata.uid: Invalid value: "u2": field is immutable',
    ]);
  });
  it('refuses new finalizers while deleting', () => {
    const deleting = { ...old, deletionTimestamp: '2024-01-02T00:00:00Z', finalizers: ['a/x'] };
    expect(render(validateObjectMetaUpdate({ ...deleting, finalizers: ['a/x', 'b/z', 'a/y'] }, deleting))).to.deep.equal([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"a/y", "b/z"}',
    ]);
  });
});

describe('validateLabelSelector', () => {
  it('reports operator, values and key problems with upstream paths', () => {
    const errs = validateLabelSelector({
      matchLabels: { 'bad key!': 'v' },
      matchExpressions: [
        { key: 'k', operator: 'In' },
        { key: 'k', operator: 'Exists', values: ['x'] },
        { key: 'k', operator: 'Near', values: ['-'] },
      ],
    }, {}, 's');
    expect(errs.map((e) => `${e.type} ${e.field}`)).to.deep.equal([
      'FieldValueInvalid s.matchLabels',
      'FieldValueRequired s.matchExpressions[0].values',
      'FieldValueForbidden s.matchExpressions[1].values',
      'FieldValueInvalid s.matchExpressions[2].operator',
      'FieldValueInvalid s.matchExpressions[2].values[0]',
    ]);
    expect(fieldErrorMessage(errs[1])).to.equal("s.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'");
  });
});
