// A network namespace for one process of the chaos cluster (a replica or an etcd member),
// so that network faults hit that process alone. Inside, the process has its own loopback
// and listens on its 127.0.0.1 as every server here does; it is joined to the host's
// loopback by links that cross the namespace boundary through Unix sockets (not separated
// by network namespaces): "outbound" ports (in the namespace, 127.0.0.1:P reaches the
// host's 127.0.0.1:P, e.g. etcd) and "inbound" ports (the host's 127.0.0.1:P reaches the
// namespace's, e.g. the replica's secure port, so clients, the load balancer and the
// certificates see the usual address). The host's end of each link is a FaultLink, where
// delay, loss and partitions are applied; the namespace guarantees the process has no other
// way out. Why not veth + tc netem: see README.md. Needs root (ip netns).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTracked, type Tracked } from '../harness/index.js';
import { startFaultLink, type FaultLink, type LinkFaults } from './fault-link.js';

export interface Namespace {
  name: string;
  /** Command prefix that runs a process inside (it execs in place: the pid is the process's). */
  prefix: string[];
  /** Joins the host's 127.0.0.1:port to the namespace's (idempotent per port). */
  addInbound(port: number): Promise<void>;
  /** Faults on the links toward the host (outbound), from the host (inbound), or both. */
  set(faults: { outbound?: LinkFaults; inbound?: LinkFaults }): void;
  stop(): Promise<void>;
}

const bridgeScript = fileURLToPath(new URL('./ns-bridge.js', import.meta.url));
const created = new Set<string>();
process.once('exit', () => {
  for (const n of created) { try { execFileSync('ip', ['netns', 'del', n], { stdio: 'ignore' }); } catch { /* gone */ } }
});

function ip(...args: string[]): void {
  try {
    execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`ip ${args.join(' ')}: ${e.stderr?.toString().trim() || e.message}`);
  }
}

async function startBridge(ns: string, specs: string[]): Promise<Tracked> {
  const p = spawnTracked('ip', ['netns', 'exec', ns, process.execPath, bridgeScript, ...specs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.child.stderr?.on('data', (c: Buffer) => { out += c.toString(); });
  await new Promise<void>((resolve, reject) => {
    p.child.stdout?.on('data', (c: Buffer) => { out += c.toString(); if (out.includes('ready')) resolve(); });
    void p.exited.then((code) => reject(new Error(`namespace bridge in ${ns} exited (${code}): ${out}`)));
  });
  return p;
}

export async function startNamespace(label: string, opts: { outbound: number[] }): Promise<Namespace> {
  const name = `chaos-${process.pid}-${label}`;
  ip('netns', 'add', name);
  created.add(name);
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const bridges: Tracked[] = [];
  const outbound: FaultLink[] = [];
  const inbound = new Map<number, FaultLink>();
  let inboundFaults: LinkFaults = {};
  const stop = async (): Promise<void> => {
    await Promise.all(bridges.map((b) => b.stop(2000)));
    await Promise.all([...outbound, ...inbound.values()].map((l) => l.close()));
    try { ip('netns', 'del', name); } catch { /* already gone */ }
    created.delete(name);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    ip('-n', name, 'link', 'set', 'lo', 'up');
    for (const port of opts.outbound) outbound.push(await startFaultLink({ path: join(dir, `out-${port}.sock`) }, { port }));
    if (opts.outbound.length > 0) bridges.push(await startBridge(name, opts.outbound.map((p) => `tcp:${p}=unix:${join(dir, `out-${p}.sock`)}`)));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    name,
    prefix: ['ip', 'netns', 'exec', name],
    async addInbound(port) {
      if (inbound.has(port)) return;
      const path = join(dir, `in-${port}.sock`);
      bridges.push(await startBridge(name, [`unix:${path}=tcp:${port}`]));
      const link = await startFaultLink({ port }, { path });
      link.set(inboundFaults);
      inbound.set(port, link);
    },
    set(f) {
      if (f.outbound) for (const l of outbound) l.set(f.outbound);
      if (f.inbound) { inboundFaults = f.inbound; for (const l of inbound.values()) l.set(f.inbound); }
    },
    stop,
  };
}
