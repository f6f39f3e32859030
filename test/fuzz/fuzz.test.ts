// The request fuzzer in `make test`: a few thousand generated requests (FUZZ_REQUESTS) against
// one replica with a token user who is system:masters, so requests without a client cert
// reach the decoders too. `make chaos` runs 100,000 (test/chaos/run.ts).
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { startReplicas, testEtcdClient, type Cluster } from '../harness/index.js';
import { FUZZ_ADMIN_TOKEN } from './arbitraries.js';
import { runFuzz, summarize } from './runner.js';

describe('request fuzzing (fast-check): decoders, parsers, headers and paths', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let etcd: Etcd3;
  before(async () => {
    cluster = await startReplicas(1, { tokens: [{ token: FUZZ_ADMIN_TOKEN, name: 'fuzz-admin', groups: ['system:masters'] }] });
    etcd = await testEtcdClient();
  });
  after(async () => {
    etcd?.close();
    await cluster?.stop();
  });

  it('answers every request with no 5xx, no hang, a Status with upstream reason for errors, and no write by a rejected request', async () => {
    const requests = Number(process.env['FUZZ_REQUESTS'] ?? 2000);
    // A fixed seed keeps make test reproducible; make chaos draws a new one each run.
    const seed = Number(process.env['FUZZ_SEED'] ?? 16);
    const report = await runFuzz({
      baseUrl: cluster.urls[0]!, admin: cluster.credentialsFor('admin'), etcd, etcdPrefix: cluster.etcdPrefix,
      requests, seed, pid: cluster.replicas[0]!.pid, timeoutMs: 30_000,
      log: process.env['FUZZ_VERBOSE'] ? (l) => console.log(l) : undefined,
    });
    if (report.findings.length > 0 || process.env['FUZZ_VERBOSE']) console.log(summarize(report));
    expect(report.sent).to.equal(requests);
    expect(report.stateChecks).to.be.greaterThan(0);
    // Both outcomes are reached: the generator is neither all-valid nor all-garbage.
    expect(Object.keys(report.byStatus).some((s) => s.startsWith('2'))).to.equal(true);
    expect(Object.keys(report.byStatus).some((s) => s.startsWith('4'))).to.equal(true);
    expect(report.findings.map((f) => `${f.problem}: ${f.detail}`).slice(0, 10)).to.deep.equal([]);
  });
});
