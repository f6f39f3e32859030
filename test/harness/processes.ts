// Server processes the harness starts must not outlive the test run, however it ends:
// a hook terminates them on a normal exit, and a watchdog per child (holding a pipe
// whose other end closes when we die) terminates them when we are killed.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';

const live = new Set<ChildProcess>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const c of live) c.kill('SIGKILL');
  });
}

export interface Tracked {
  child: ChildProcess;
  pid: number;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after graceMs; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnTracked(command: string, args: string[], opts: SpawnOptions): Tracked {
  hookExit();
  const child = spawn(command, args, opts);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`cannot start ${command}`);
  live.add(child);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      live.delete(child);
      resolve(code);
    });
  });
  const watchdog = spawn('sh', ['-c', 'read _ || :; kill -KILL "$1" 2>/dev/null', 'harness-watchdog', String(pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  watchdog.on('error', () => { /* the exit hook still covers normal exits */ });
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (watchdog.exitCode === null && watchdog.pid !== undefined) {
      try { process.kill(watchdog.pid, 'SIGKILL'); } catch { /* gone */ }
    }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    }
  };
  return { child, pid, exited, stop };
}

/** Running, and not a zombie waiting for a reaper that may never come in a container. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
