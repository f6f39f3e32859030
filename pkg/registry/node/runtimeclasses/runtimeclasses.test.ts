import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { runtimeclasses } from './index.js';

const s = runtimeclasses.strategy;

describe('runtimeclasses', () => {
  it('declares upstream discovery data', () => {
    expect(runtimeclasses).to.include({ group: 'node.k8s.io', version: 'v1', kind: 'RuntimeClass', plural: 'runtimeclasses', namespaced: false });
  });

  it('reproduces upstream\'s created fixtures-rc', () => {
    const { request, response } = objectFixture('node.k8s.io_v1', 'RuntimeClass', 'fixtures-rc');
    expect(createThrough(runtimeclasses, request)).to.deep.equal(withoutVolatile(response));
  });

  it('handler is a DNS label and immutable; overhead is non-negative', () => {
    expect(s.validate({ metadata: { name: 'r' }, handler: 'Run_C', overhead: { podFixed: { cpu: '-1' } } }, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      "handler: Invalid value: \"Run_C\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'overhead.podFixed[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
    expect(s.validateUpdate({ metadata: { name: 'r', resourceVersion: '1' }, handler: 'b' }, { metadata: { name: 'r', resourceVersion: '1' }, handler: 'a' }, {})
      .map((e) => fieldErrorMessage(e))).to.deep.equal(['handler: Invalid value: "b": field is immutable']);
  });

  it('prints upstream\'s columns', () => {
    const fx = tableFixture('node.k8s.io_v1', 'RuntimeClass');
    expect(runtimeclasses.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    const { response } = objectFixture('node.k8s.io_v1', 'RuntimeClass', 'fixtures-rc');
    response.metadata.creationTimestamp = new Date(Date.now() - 1000).toISOString();
    expect(runtimeclasses.table!.cells(response)).to.deep.equal(fx.rows[0]);
  });
});
