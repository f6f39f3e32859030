// Data dirs for the etcds that tests and benchmarks start. They live in memory (/dev/shm)
// when there is one, because etcd fsyncs every write; but memory is not given back when a
// process ends, so the dir of a run killed before its cleanup would stay for good (20 GB
// had piled up on a developer machine). Each dir's name carries its owner's PID, and every
// new dir first removes those of its kind whose owner has gone.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function scratchRoot(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** A new dir `<kind><pid>-XXXXXX` under the scratch root, after sweeping dead owners' dirs of that kind. */
export function makeScratchDir(kind: string): string {
  const root = scratchRoot();
  sweep(root, kind);
  return mkdtempSync(join(root, `${kind}${process.pid}-`));
}

function sweep(root: string, kind: string): void {
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n.startsWith(kind));
  } catch {
    return;
  }
  let commandLines: string | undefined;
  for (const name of names) {
    const dir = join(root, name);
    const owner = /^(\d+)-/.exec(name.slice(kind.length))?.[1];
    try {
      if (owner !== undefined) {
        if (alive(Number(owner))) continue;
      } else {
        // A dir named before owners were recorded: gone when no process names it and it is not new.
        commandLines ??= allCommandLines();
        if (commandLines === undefined || commandLines.includes(dir) || Date.now() - statSync(dir).mtimeMs < 5 * 60_000) continue;
      }
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // another run removed it first, or it is not ours to remove
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function allCommandLines(): string | undefined {
  try {
    return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((pid) => {
      try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { return ''; }
    }).join('\n');
  } catch {
    return undefined; // no /proc: leave such dirs alone
  }
}
