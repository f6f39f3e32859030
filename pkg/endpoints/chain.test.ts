import { expect } from 'chai';
import type Koa from 'koa';
import { composeChain } from './chain.js';

const ctx = (): Koa.Context => ({ state: {} }) as unknown as Koa.Context;

describe('endpoints/chain', () => {
  it('runs the layers in order, each around the ones after it, and resolves once all have', async () => {
    const seen: string[] = [];
    const chain = composeChain([
      (_c, next) => { seen.push('a in'); return next().then(() => { seen.push('a out'); }); },
      async (_c, next) => { seen.push('b in'); await next(); seen.push('b out'); },
      (c) => { seen.push('c'); c.state.answered = true; },
    ]);
    const c = ctx();
    const done = chain(c);
    expect(done).to.be.instanceOf(Promise);
    await done;
    expect(seen).to.deep.equal(['a in', 'b in', 'c', 'b out', 'a out']);
    expect(c.state.answered).to.equal(true);
  });

  it('gives concurrent requests their own dispatch', async () => {
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => { release = r; });
    const chain = composeChain([
      (c, next) => (c.state.name === 'slow' ? gate.then(() => next()) : next()),
      (c) => { order.push(c.state.name as string); },
    ]);
    const slow = ctx();
    slow.state.name = 'slow';
    const fast = ctx();
    fast.state.name = 'fast';
    const a = chain(slow);
    await chain(fast);
    release();
    await a;
    expect(order).to.deep.equal(['fast', 'slow']);
  });

  it('turns a synchronous throw into a rejection the outer layers see', async () => {
    const chain = composeChain([
      (c, next) => next().then(undefined, (err: Error) => { c.state.caught = err.message; }),
      () => { throw new Error('refused'); },
    ]);
    const c = ctx();
    await chain(c);
    expect(c.state.caught).to.equal('refused');
  });

  it('resolves past the last layer, and refuses a next() called again after the end', async () => {
    let again: Promise<void> | undefined;
    const chain = composeChain([
      (_c, next) => next().then(() => { again = next(); }),
    ]);
    await chain(ctx());
    let err: unknown;
    await again!.then(undefined, (e: unknown) => { err = e; });
    expect(String(err)).to.contain('next() called multiple times');
  });
});
