import { expect } from 'chai';
import { concurrently } from './concurrently.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('concurrently', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await concurrently([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      done.push(n);
    });
    expect(done.sort()).to.deep.equal([1, 2, 3, 4, 5, 6, 7]);
    expect(most).to.equal(3);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    const started: number[] = [];
    const err = await concurrently([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error('two failed');
    }).then(() => undefined, (e: Error) => e);
    expect(err?.message).to.equal('two failed');
    expect(started).to.deep.equal([1, 2, 3]);
  });

  it('an empty list resolves at once', async () => {
    await concurrently([], 4, async () => { throw new Error('never called'); });
  });
});
