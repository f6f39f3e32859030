// Log files of processes alive during a test, printed when that test fails.
import { readFileSync } from 'node:fs';

const logs = new Map<string, string>();

export function registerLog(label: string, file: string): void {
  logs.set(label, file);
}

export function unregisterLog(label: string): void {
  logs.delete(label);
}

/** The last `lines` lines of a file, or a note that it could not be read. */
export function tailOf(file: string, lines = 80): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch (err) {
    return `(cannot read ${file}: ${(err as Error).message})`;
  }
}

/** Prints every registered log's tail to stderr. */
export function dumpLogs(reason: string): void {
  for (const [label, file] of logs) {
    process.stderr.write(`\n----- ${label} (${file}), last lines, ${reason} -----\n${tailOf(file)}\n----- end of ${label} -----\n`);
  }
}
