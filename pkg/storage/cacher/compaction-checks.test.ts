import { expect } from 'chai';
import { CompactionChecks } from './compaction-checks.js';

/** A stand-in for etcd's answer: each question waits until the test answers it. */
function fakeEtcd() {
  const questions: Array<{ rev: number; answer: (gone: boolean) => void; fail: (err: Error) => void }> = [];
  const checks = new CompactionChecks((rev) => new Promise((answer, fail) => { questions.push({ rev, answer, fail }); }));
  return { checks, questions };
}

const settled = () => new Promise((r) => setImmediate(r));

describe('CompactionChecks', () => {
  it('asks etcd at once, and asks once for every caller that came while a question was out, with the oldest revision', async () => {
    const { checks, questions } = fakeEtcd();
    const first = checks.compacted(50);
    expect(questions.map((q) => q.rev)).to.deep.equal([50]);
    const later = [checks.compacted(70), checks.compacted(60), checks.compacted(90)];
    await settled();
    expect(questions).to.have.length(1);
    questions[0]!.answer(false);
    expect(await first).to.equal(false);
    await settled();
    expect(questions.map((q) => q.rev)).to.deep.equal([50, 60]);
    questions[1]!.answer(false);
    expect(await Promise.all(later)).to.deep.equal([false, false, false]);
  });

  it('never answers a caller with a question sent before it asked: a compaction in between is seen', async () => {
    const { checks, questions } = fakeEtcd();
    const first = checks.compacted(50);
    const second = checks.compacted(50);
    // etcd compacts between the first question's answer and the second caller's question.
    questions[0]!.answer(false);
    expect(await first).to.equal(false);
    await settled();
    questions[1]!.answer(true);
    expect(await second).to.equal(true);
  });

  it('when the oldest revision is gone, asks about each newer one on its own', async () => {
    const { checks, questions } = fakeEtcd();
    void checks.compacted(1);
    const waiting = [checks.compacted(40), checks.compacted(10), checks.compacted(80)];
    questions[0]!.answer(false);
    await settled();
    expect(questions.map((q) => q.rev)).to.deep.equal([1, 10]);
    questions[1]!.answer(true);
    await settled();
    expect(questions.slice(2).map((q) => q.rev)).to.deep.equal([40, 80]);
    questions[2]!.answer(true);
    questions[3]!.answer(false);
    expect(await Promise.all(waiting)).to.deep.equal([true, true, false]);
  });

  it('hands an etcd failure to every caller of that question, and asks afresh for the next', async () => {
    const { checks, questions } = fakeEtcd();
    const a = checks.compacted(5);
    questions[0]!.fail(new Error('etcd unreachable'));
    let err: unknown;
    try { await a; } catch (e) { err = e; }
    expect((err as Error).message).to.equal('etcd unreachable');
    await settled();
    const b = checks.compacted(5);
    expect(questions).to.have.length(2);
    questions[1]!.answer(false);
    expect(await b).to.equal(false);
  });
});
