// kubectl v1.28 against the `kubernetes` Service's endpoints, written by two replicas
// with their own advertise addresses, and against Endpoints a user creates.
import { expect } from 'chai';
import { kubectlOn, startReplicas, type Cluster } from '../harness/index.js';

describe('e2e: kubectl and endpoints', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const { k, ok } = kubectlOn(() => cluster);
  const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

  before(async () => {
    cluster = await startReplicas(2, { extraArgs: (i) => [`--advertise-address=192.0.2.${11 + i}`] });
    // Replicas starting together may each see only their own lease at first; the next
    // reconcile (every 10 s, upstream's interval) lists both.
    const deadline = Date.now() + 30_000;
    const both = async () => {
      const [ep, slice] = await Promise.all([
        k(['get', 'endpoints', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.subsets[0].addresses[*].ip}']),
        k(['get', 'endpointslices', 'kubernetes', '-n', 'default', '-o', 'jsonpath={.endpoints[*].addresses[0]}']),
      ]);
      return ep.stdout === '192.0.2.11 192.0.2.12' && slice.stdout === '192.0.2.11 192.0.2.12';
    };
    while (!(await both())) {
      if (Date.now() > deadline) throw new Error('the kubernetes endpoints never listed both replicas');
      await new Promise((r) => setTimeout(r, 500));
    }
  });
  after(async () => { await cluster?.stop(); });

  it('get endpoints kubernetes -n default lists both replicas', async () => {
    const [header, row] = rows(await ok(['get', 'endpoints', 'kubernetes', '-n', 'default'], undefined, 1));
    expect(header).to.deep.equal(['NAME', 'ENDPOINTS', 'AGE']);
    expect(row[0]).to.equal('kubernetes');
    expect(row[1]).to.match(/^192\.0\.2\.11:(\d+),192\.0\.2\.12:\1$/);
    const port = Number(/:(\d+),/.exec(row[1])![1]);
    expect(cluster.replicas.map((r) => r.port)).to.include(port);
  });

  it('get endpointslices -n default shows the mirrored slice', async () => {
    const [header, row] = rows(await ok(['get', 'endpointslices', '-n', 'default']));
    expect(header).to.deep.equal(['NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE']);
    expect(row.slice(0, 2)).to.deep.equal(['kubernetes', 'IPv4']);
    expect(cluster.replicas.map((r) => String(r.port))).to.include(row[2]);
    expect(row[3]).to.equal('192.0.2.11,192.0.2.12');
  });

  it('describe service kubernetes shows the cluster IP and the endpoints', async () => {
    const out = await ok(['describe', 'service', 'kubernetes', '-n', 'default']);
    expect(out).to.match(/^IP:\s+10\.0\.0\.1$/m);
    expect(out).to.match(/^Port:\s+https\s+443\/TCP$/m);
    expect(out).to.match(/^Endpoints:\s+192\.0\.2\.11:\d+,192\.0\.2\.12:\d+$/m);
  });

  it('create -f, get ep with "+ N more...", and upstream\'s refusal of a loopback address', async () => {
    const ep = (name: string, ips: string[]) => JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: 'default' },
      subsets: [{ addresses: ips.map((ip) => ({ ip })), ports: [{ port: 80 }] }] });
    expect(await ok(['create', '-f', '-'], ep('many', ['10.1.0.1', '10.1.0.2', '10.1.0.3', '10.1.0.4', '10.1.0.5']))).to.equal('endpoints/many created\n');
    const [, row] = rows(await ok(['get', 'ep', 'many', '-n', 'default']));
    expect(row[1]).to.equal('10.1.0.1:80,10.1.0.2:80,10.1.0.3:80 + 2 more...');
    const bad = await k(['create', '-f', '-'], ep('lo', ['127.0.0.1']));
    expect(bad.code).to.equal(1);
    expect(bad.stderr.trim()).to.equal('The Endpoints "lo" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)');
  });
});
