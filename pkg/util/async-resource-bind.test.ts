import { expect } from 'chai';
import { AsyncResource, executionAsyncId, triggerAsyncId } from 'node:async_hooks';
import { installCheapAsyncResourceBind } from './async-resource-bind.js';

describe('installCheapAsyncResourceBind', () => {
  const check = (): void => {
    const resource = new AsyncResource('test');
    const seen: unknown[] = [];
    function probe(this: unknown, a: number, b: number): number {
      seen.push(this, executionAsyncId(), triggerAsyncId());
      return a + b;
    }
    const unbound = resource.bind(probe);
    expect(unbound.length).to.equal(2);
    const receiver = { r: 1 };
    expect(unbound.call(receiver, 1, 2)).to.equal(3);
    expect(seen).to.deep.equal([receiver, resource.asyncId(), resource.triggerAsyncId()]);
    seen.length = 0;
    // Node takes a thisArg too, which its typings leave out.
    const bindWith = resource.bind as unknown as (this: AsyncResource, fn: typeof probe, thisArg: unknown) => (a: number, b: number) => number;
    const withThis = bindWith.call(resource, probe, receiver);
    expect(withThis(3, 4)).to.equal(7);
    expect(seen).to.deep.equal([receiver, resource.asyncId(), resource.triggerAsyncId()]);
    expect(() => resource.bind(42 as unknown as () => void)).to.throw().with.property('code', 'ERR_INVALID_ARG_TYPE');
    // HTTP/2's request callback: no arguments, as Node's own bound function says.
    expect(resource.bind(() => undefined).length).to.equal(0);
    expect(bindWith.call(resource, (() => 0) as unknown as typeof probe, receiver).length).to.equal(0);
  };

  it('binds as Node does (scope, this, arguments, length, errors), without the deprecated accessor', () => {
    check();
    installCheapAsyncResourceBind();
    installCheapAsyncResourceBind();
    check();
    expect(Object.prototype.hasOwnProperty.call(new AsyncResource('x').bind(() => undefined), 'asyncResource')).to.equal(false);
  });
});
