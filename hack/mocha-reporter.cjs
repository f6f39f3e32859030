'use strict';
// Mocha's spec reporter, plus one machine-readable last line: "N passed, N failed"
// (and ", N skipped" when tests were pending). Failed hooks count as failures, as in
// mocha's own summary.
// With MOCHA_FILE_TIMES=<path>, what each test file cost (its top-level suites, hooks
// included) goes to <path> as JSON, costliest first: wall seconds, and CPU seconds of this
// process, of the children it reaped meanwhile (replicas, kubectl, etcds of its own) and of
// the run's shared etcd. CPU is what a loaded machine does not distort; the suite's time
// budget is spent per file, and that is where to look first when it grows.
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

const { Spec, Base } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END } = Mocha.Runner.constants;

/** utime+stime and cutime+cstime of a process, in seconds (/proc/<pid>/stat, 100 ticks/s). */
function procCpu(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { own: (Number(f[11]) + Number(f[12])) / 100, reaped: (Number(f[13]) + Number(f[14])) / 100 };
  } catch {
    return { own: 0, reaped: 0 };
  }
}

/** The CPU seconds spent so far by this process, its reaped children and its live etcd children. */
function cpuSoFar() {
  const me = procCpu(process.pid);
  let etcd = 0;
  try {
    for (const tid of fs.readdirSync(`/proc/${process.pid}/task`)) {
      for (const pid of fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean)) {
        if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'etcd') etcd += procCpu(pid).own;
      }
    }
  } catch { /* not Linux, or the child is gone */ }
  return me.own + me.reaped + etcd;
}

function recordFileTimes(runner, outPath) {
  const started = new Map();
  const totals = new Map();
  runner.on(EVENT_SUITE_BEGIN, (suite) => {
    if (suite.file && suite.parent && suite.parent.root) started.set(suite, { t: process.hrtime.bigint(), cpu: cpuSoFar() });
  });
  runner.on(EVENT_SUITE_END, (suite) => {
    const t0 = started.get(suite);
    if (t0 === undefined) return;
    const file = path.relative(process.cwd(), suite.file);
    const sum = totals.get(file) || { seconds: 0, cpuSeconds: 0 };
    sum.seconds += Number(process.hrtime.bigint() - t0.t) / 1e9;
    sum.cpuSeconds += cpuSoFar() - t0.cpu;
    totals.set(file, sum);
  });
  runner.once(EVENT_RUN_END, () => {
    const round = (x) => Math.round(x * 10) / 10;
    const rows = [...totals].sort((a, b) => b[1].cpuSeconds - a[1].cpuSeconds)
      .map(([file, t]) => ({ file, seconds: round(t.seconds), cpuSeconds: round(t.cpuSeconds) }));
    fs.writeFileSync(outPath, JSON.stringify(rows, null, 1) + '\n');
  });
}

class SummaryLineReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    if (process.env.MOCHA_FILE_TIMES) {
      // In parallel mode a file's events arrive all at once when its worker is done.
      if (options.parallel) Base.consoleLog('MOCHA_FILE_TIMES needs one process (make test TEST_JOBS=1); not recorded');
      else recordFileTimes(runner, process.env.MOCHA_FILE_TIMES);
    }
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
