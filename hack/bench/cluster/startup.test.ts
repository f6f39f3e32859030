// Start-up stages when the generator sees the steps out of order: a create's answer read
// after the pod already ran (watch events outran a slow answer) still completes the pod.
import { expect } from 'chai';
import { StartupStages } from './startup.js';

describe('cluster load: StartupStages', () => {
  const steps = ['schedulerSaw', 'bindSent', 'bound', 'kubeletSaw', 'creating'] as const;

  it('keeps a pod whose create answer came after its Running report, with stages that add up', () => {
    const st = new StartupStages(1000);
    st.mark('ns/a', 'sent', 0);
    steps.forEach((m, i) => st.mark('ns/a', m, 100 * (i + 1)));
    st.ran('ns/a', 2000);
    expect(st.totals).to.deep.equal([]);
    expect([...st.unmarked]).to.deep.equal([['answered', 1]]);
    st.mark('ns/a', 'answered', 2500);
    expect(st.totals).to.deep.equal([2000]);
    expect([...st.unmarked]).to.deep.equal([]);
    const byStage = st.rows().map((r) => r.s.p50);
    // answered after everything: its stage is long and the next one negative; the sum holds.
    expect(byStage).to.deep.equal([2500, 100 - 2500, 100, 100, 100, 100, 2000 - 500 - 1000]);
    expect(byStage.reduce((a, b) => a + b, 0) + 1000).to.equal(2000);
  });

  it('counts a pod that ran without a step seen by the first missing step, and forgets a dropped one', () => {
    const st = new StartupStages(0);
    st.mark('ns/b', 'sent', 0);
    st.mark('ns/b', 'answered', 10);
    st.ran('ns/b', 50);
    st.mark('ns/c', 'sent', 0);
    st.ran('ns/c', 60);
    expect(Object.fromEntries(st.unmarked)).to.deep.equal({ schedulerSaw: 1, answered: 1 });
    st.drop('ns/c');
    expect(Object.fromEntries(st.unmarked)).to.deep.equal({ schedulerSaw: 1 });
  });
});
