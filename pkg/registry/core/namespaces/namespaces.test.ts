import { expect } from 'chai';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { namespaces } from './index.js';

const render = (errs: FieldError[]): string[] => errs.map((e) => fieldErrorMessage(e));
const s = namespaces.strategy;

const stored = (): KubeObject => ({
  apiVersion: 'v1', kind: 'Namespace',
  metadata: { name: 'team', uid: 'u', resourceVersion: '3', creationTimestamp: '2024-01-01T00:00:00Z', labels: { 'kubernetes.io/metadata.name': 'team' } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

describe('namespaces', () => {
  it('declares upstream discovery data', () => {
    expect(namespaces).to.include({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', singular: 'namespace', namespaced: false });
    expect(namespaces.shortNames).to.deep.equal(['ns']);
    expect(namespaces.verbs).to.deep.equal(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    expect(namespaces.subresources).to.deep.equal([
      { name: 'finalize', kind: 'Namespace', verbs: ['update'] },
      { name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
    ]);
    expect(s.allowCreateOnUpdate).to.equal(false);
    expect(s.allowUnconditionalUpdate).to.equal(true);
  });

  it('defaults the decoded body: spec, Active phase and the name label', () => {
    const obj: KubeObject = { metadata: { name: 'team' } };
    s.applyDefaults(obj);
    expect(obj).to.deep.equal({ metadata: { name: 'team', labels: { 'kubernetes.io/metadata.name': 'team' } }, spec: {}, status: { phase: 'Active' } });
  });

  it('on create adds the kubernetes finalizer and resets status', () => {
    const obj: KubeObject = { metadata: { name: 'a' }, spec: { finalizers: ['example.com/x'] }, status: { phase: 'Terminating' } };
    s.prepareForCreate(obj, {});
    expect(obj.spec).to.deep.equal({ finalizers: ['example.com/x', 'kubernetes'] });
    expect(obj.status).to.deep.equal({ phase: 'Active' });
  });

  it('names are DNS labels', () => {
    expect(render(s.validate({ metadata: { name: 'a.b' }, spec: {} }, {}))).to.deep.equal([
      "metadata.name: Invalid value: \"a.b\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]);
  });

  it('spec finalizers must be standard or qualified', () => {
    expect(render(s.validate({ metadata: { name: 'a' }, spec: { finalizers: ['kubernetes', 'custom'] } }, {}))).to.deep.equal([
      'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified']);
  });

  it('main endpoint cannot change finalizers or status', () => {
    const obj = stored();
    obj.spec = { finalizers: [] };
    obj.status = { phase: 'Terminating' };
    obj.metadata.labels = { team: 'x' };
    s.prepareForUpdate(obj, stored(), {});
    expect(obj.spec).to.deep.equal({ finalizers: ['kubernetes'] });
    expect(obj.status).to.deep.equal({ phase: 'Active' });
    expect(obj.metadata.labels).to.deep.equal({ team: 'x' });
  });

  it('status endpoint keeps spec and checks the phase against deletion', () => {
    const obj = stored();
    obj.spec = { finalizers: [] };
    obj.status = { phase: 'Terminating' };
    s.prepareForUpdate(obj, stored(), { subresource: 'status' });
    expect(obj.spec).to.deep.equal({ finalizers: ['kubernetes'] });
    expect(render(s.validateUpdate(obj, stored(), { subresource: 'status' }))).to.deep.equal([
      'status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty']);
    const deleting = stored();
    deleting.metadata.deletionTimestamp = '2024-02-01T00:00:00Z';
    const upd = structuredClone(deleting);
    expect(render(s.validateUpdate(upd, deleting, { subresource: 'status' }))).to.deep.equal([
      'status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty']);
  });

  it('finalize endpoint changes finalizers only', () => {
    const obj = stored();
    obj.spec = { finalizers: ['bad name'] };
    obj.status = { phase: 'Terminating' };
    s.prepareForUpdate(obj, stored(), { subresource: 'finalize' });
    expect(obj.status).to.deep.equal({ phase: 'Active' });
    const errs = render(s.validateUpdate(obj, stored(), { subresource: 'finalize' }));
    expect(errs).to.have.length(2);
    expect(errs[0]).to.match(/^spec\.finalizers\[0\]: Invalid value: "bad name": name part must consist of/);
    expect(errs[1]).to.equal('spec.finalizers[0]: Invalid value: "bad name": name is neither a standard finalizer name nor is it fully qualified');
  });

  it('labels a generated name at canonicalization', () => {
    const obj: KubeObject = { metadata: { name: 'gen-x7k2p', labels: { a: 'b' } } };
    s.canonicalize(obj);
    expect(obj.metadata.labels).to.deep.equal({ a: 'b', 'kubernetes.io/metadata.name': 'gen-x7k2p' });
  });

  it('prints NAME STATUS AGE and selects on status.phase', () => {
    const obj = stored();
    obj.metadata.creationTimestamp = new Date(Date.now() - 90_000).toISOString();
    expect(namespaces.table!.columns.map((c) => [c.name, c.type])).to.deep.equal([['Name', 'string'], ['Status', 'string'], ['Age', 'string']]);
    expect(namespaces.table!.cells(obj)).to.deep.equal(['team', 'Active', '90s']);
    expect(namespaces.selectableFields!(obj)).to.deep.equal({ 'status.phase': 'Active', name: 'team' });
    expect(namespaces.selectableFields!({ metadata: {} })).to.deep.equal({ 'status.phase': '', name: '' });
  });
});
