import { expect } from 'chai';
import { sharedQuestion } from './shared-probe.js';

/** A stand-in for etcd: each question waits until the test answers it with its number. */
function fakeEtcd() {
  const questions: Array<{ answer: (n: number) => void; fail: (err: Error) => void }> = [];
  const ask = sharedQuestion(() => new Promise<number>((answer, fail) => { questions.push({ answer, fail }); }));
  return { ask, questions };
}

const settled = () => new Promise((r) => setImmediate(r));

describe('sharedQuestion', () => {
  it('asks at once, and asks once more for every caller that came while a question was out', async () => {
    const { ask, questions } = fakeEtcd();
    const first = ask();
    expect(questions).to.have.length(1);
    const later = [ask(), ask(), ask()];
    await settled();
    expect(questions).to.have.length(1);
    questions[0]!.answer(1);
    expect(await first).to.equal(1);
    await settled();
    expect(questions).to.have.length(2);
    questions[1]!.answer(2);
    expect(await Promise.all(later)).to.deep.equal([2, 2, 2]);
    // Nothing out: the next caller asks at once.
    const again = ask();
    expect(questions).to.have.length(3);
    questions[2]!.answer(3);
    expect(await again).to.equal(3);
  });

  it('never answers a caller with a question sent before it asked', async () => {
    const { ask, questions } = fakeEtcd();
    const first = ask();
    const second = ask();
    questions[0]!.answer(1);
    expect(await first).to.equal(1);
    // A caller that comes after the second question went out waits for a third.
    await settled();
    expect(questions).to.have.length(2);
    const third = ask();
    questions[1]!.answer(2);
    expect(await second).to.equal(2);
    await settled();
    expect(questions).to.have.length(3);
    questions[2]!.answer(3);
    expect(await third).to.equal(3);
  });

  it('fails the callers of a failed question only; the waiting ones get the next answer', async () => {
    const { ask, questions } = fakeEtcd();
    const first = ask();
    const second = ask();
    questions[0]!.fail(new Error('etcd unavailable'));
    let failed: unknown;
    try { await first; } catch (err) { failed = err; }
    expect(String(failed)).to.match(/etcd unavailable/);
    await settled();
    questions[1]!.answer(7);
    expect(await second).to.equal(7);
  });
});
