// The filter chain run as one function per request, in place of koa-compose. koa-compose
// gives every layer its own `next` (a bound function) and wraps every layer's answer in
// Promise.resolve: about twenty of each on every request here. The chain is fixed and
// every filter calls `next` at most once, from within its own turn in the chain (before
// the layers after it have started), so one `next` per request that starts the layer
// after the last one started is the same dispatch. A layer's synchronous throw becomes a
// rejection, as koa-compose makes it; a layer that answers without a promise (a filter
// that ends the request) gives a resolved one.
import type Koa from 'koa';

export type Chain = (ctx: Koa.Context) => Promise<void>;

const settled: Promise<void> = Promise.resolve();

export function composeChain(middleware: readonly Koa.Middleware[]): Chain {
  const layers = [...middleware];
  const count = layers.length;
  for (const fn of layers) if (typeof fn !== 'function') throw new TypeError('Middleware must be composed of functions!');
  return (ctx) => {
    let started = -1;
    const next = (): Promise<void> => {
      const i = ++started;
      if (i >= count) {
        // Past the last layer: what koa-compose's final next() gives, and an error once
        // the end has been reached already (a layer calling next twice).
        return i === count ? settled : Promise.reject(new Error('next() called multiple times'));
      }
      try {
        const out: unknown = layers[i]!(ctx, next);
        return out instanceof Promise ? out as Promise<void> : Promise.resolve(out as void);
      } catch (err) {
        return Promise.reject(err);
      }
    };
    return next();
  };
}
