// Node 20's AsyncResource.prototype.bind gives every bound function a deprecated
// `asyncResource` accessor (DEP0172) made of two deprecate() wrappers, each of which sets
// its prototype: about 12-15 us of CPU a call, warm, against 0.5-0.7 us without it. Node's
// HTTP/2 client binds one AsyncResource per request, so every etcd call paid it (a few per
// cent of each API request, the floor server's too). Nothing here or in the dependencies
// reads the accessor; the bound function is otherwise Node's: it runs `fn` in the
// resource's async scope with the same `this`, arguments and length, and a non-function
// still fails with Node's own error.
import { AsyncResource } from 'node:async_hooks';

type Bind = (this: AsyncResource, fn: (...args: unknown[]) => unknown, thisArg?: unknown) => (...args: unknown[]) => unknown;

/** Replaces AsyncResource.prototype.bind as above, once, where Node's defines the accessor. */
export function installCheapAsyncResourceBind(): void {
  const proto = AsyncResource.prototype as unknown as { bind: Bind };
  const stock = proto.bind;
  if (!Object.prototype.hasOwnProperty.call(stock.call(new AsyncResource('probe'), () => undefined), 'asyncResource')) return;
  proto.bind = function bind(this: AsyncResource, fn, thisArg) {
    if (typeof fn !== 'function') return stock.call(this, fn, thisArg);
    const resource = this;
    const bound = thisArg === undefined
      ? function (this: unknown, ...args: unknown[]): unknown {
        args.unshift(fn, this);
        return Reflect.apply(resource.runInAsyncScope, resource, args);
      }
      : resource.runInAsyncScope.bind(resource, fn, thisArg) as (...args: unknown[]) => unknown;
    // Both shapes are born with length 0; HTTP/2's per-request callback takes no
    // arguments, and defineProperty is a runtime call (about 1% of a write's CPU).
    if (fn.length !== 0) Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
    return bound;
  };
}
