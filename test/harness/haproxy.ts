// HAProxy in front of replicas, as operators run kube-apiserver: TCP passthrough (clients
// authenticate to the replica itself), round robin, and a /readyz health check, so that
// a replica that starts shutting down is taken out before it stops listening: every
// second, every 200 ms once one has failed (fastinter) or while it is down, two failures
// take it out (about 1.2 s after its /readyz turns 503, inside the tests' shutdown delay).
// haproxy gives a check's connect and TLS handshake min(inter, timeout connect): with
// inter 200 ms and one failure enough, a loaded machine's slower handshake took out a
// healthy replica beside the stopping one, and with no server left haproxy closed the
// clients' connections ("socket disconnected before secure TLS connection was established").
// At a load average of 20 a check still timed out now and then: when every replica is
// marked down, each is tried unchecked (backup servers), a refused connection retried on
// the next, as a balancer that sends somewhere rather than nowhere.
// The binary comes from HAPROXY_BIN (make test installs Debian's haproxy).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import { spawnTracked, type Tracked } from './processes.js';

export interface HAProxy {
  url: string;
  port: number;
  /** What haproxy printed: its warnings name each server going DOWN or UP, and why. */
  output(): string;
  stop(): Promise<void>;
}

export async function startHAProxy(backendPorts: number[]): Promise<HAProxy> {
  const bin = process.env.HAPROXY_BIN;
  if (!bin) throw new Error('HAPROXY_BIN is not set: run `make test` (it installs haproxy) or set HAPROXY_BIN to the haproxy binary');
  const dir = mkdtempSync(join(tmpdir(), 'haproxy-'));
  const port = await freePort();
  const config = `global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  retries 3
  option redispatch
frontend api
  bind 127.0.0.1:${port}
  default_backend replicas
backend replicas
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  timeout check 2s
  option allbackups
  default-server inter 1s fastinter 200ms downinter 200ms fall 2 rise 2 check check-ssl verify none
${backendPorts.map((p, i) => `  server replica-${i} 127.0.0.1:${p}`).join('\n')}
${backendPorts.map((p, i) => `  server fallback-${i} 127.0.0.1:${p} backup no-check`).join('\n')}
`;
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  let output = '';
  const proc: Tracked = spawnTracked(bin, ['-f', file, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  // Each line stamped with when it arrived, to set beside a test's own steps.
  const take = (c: Buffer) => { output += c.toString().replace(/^(?=.)/gm, `${new Date().toISOString()} `); };
  proc.child.stdout?.on('data', take);
  proc.child.stderr?.on('data', take);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`haproxy exited (${proc.child.exitCode}): ${output}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) { await proc.stop(); throw new Error(`haproxy did not listen on ${port}: ${output}`); }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    output: () => output,
    async stop() {
      await proc.stop(2000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
