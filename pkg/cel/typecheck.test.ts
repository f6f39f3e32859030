import { expect } from 'chai';
import { typeCheck } from './typecheck.js';

const deployment = 'io.k8s.api.apps.v1.Deployment';

describe('pkg/cel: typeCheck against OpenAPI schemas', () => {
  it('reports a field the kind does not have, with cel-go\'s text', () => {
    expect(typeCheck('object.replicas > 1', { object: deployment })).to.equal(
      "ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^");
  });

  it('accepts fields the kind has, map keys and dyn roots', () => {
    expect(typeCheck('object.spec.replicas > 1 && object.metadata.labels.foo == "x"', { object: deployment })).to.equal(undefined);
    expect(typeCheck('params.data.anything == "x"', { params: 'io.k8s.api.core.v1.ConfigMap' })).to.equal(undefined);
    expect(typeCheck('request.whatever == 1', { object: deployment })).to.equal(undefined);
  });

  it('reports operators applied to operands of types that have no overload', () => {
    expect(typeCheck("object.spec.replicas > 'three'", { object: deployment })).to.equal(
      "ERROR: <input>:1:22: found no matching overload for '_>_' applied to '(int, string)'\n | object.spec.replicas > 'three'\n | .....................^");
    expect(typeCheck('object.spec.replicas > 2.5 && object.metadata.name + "x" == "ax"', { object: deployment })).to.equal(undefined);
    expect(typeCheck('object.spec.paused == 1', { object: deployment })).to.contain("'_==_' applied to '(bool, int)'");
  });

  it('follows list elements through macros and indexing', () => {
    const e = 'object.spec.template.spec.containers.all(c, c.imagee != "")';
    expect(typeCheck(e, { object: deployment })).to.contain("undefined field 'imagee'");
    expect(typeCheck('object.spec.template.spec.containers[0].name != ""', { object: deployment })).to.equal(undefined);
    expect(typeCheck('has(object.spec.nope)', { object: deployment })).to.contain("undefined field 'nope'");
  });
});
