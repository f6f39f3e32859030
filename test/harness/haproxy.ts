// HAProxy in front of replicas, as operators run kube-apiserver: TCP passthrough (clients
// authenticate to the replica itself), round robin, and a /readyz health check every
// 200 ms, so a replica that starts shutting down is taken out before it stops listening.
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
  default-server inter 200ms fall 1 rise 2 check check-ssl verify none
${backendPorts.map((p, i) => `  server replica-${i} 127.0.0.1:${p}`).join('\n')}
`;
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  let output = '';
  const proc: Tracked = spawnTracked(bin, ['-f', file, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.child.stdout?.on('data', (c: Buffer) => { output += c.toString(); });
  proc.child.stderr?.on('data', (c: Buffer) => { output += c.toString(); });
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
    async stop() {
      await proc.stop(2000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
