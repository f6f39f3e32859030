'use strict';
// Mocha's spec reporter, plus one machine-readable last line: "N passed, N failed"
// (and ", N skipped" when tests were pending). Failed hooks count as failures, as in
// mocha's own summary.
const Mocha = require('mocha');

const { Spec, Base } = Mocha.reporters;
const { EVENT_RUN_END } = Mocha.Runner.constants;

class SummaryLineReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    // Registered after Spec's own handler, so this prints after its epilogue.
    runner.once(EVENT_RUN_END, () => {
      const s = this.stats;
      let line = `${s.passes || 0} passed, ${s.failures || 0} failed`;
      if (s.pending) line += `, ${s.pending} skipped`;
      Base.consoleLog(line);
    });
  }
}

SummaryLineReporter.description = 'spec, then a last line "N passed, N failed"';
module.exports = SummaryLineReporter;
