// A bench's command line, checked before the bench starts anything (etcd, replicas): --help
// prints the usage, which is the comment at the head of the bench's file, and exits 0; a
// --flag the bench does not read prints the usage and exits 2. Before, `--help` ran the
// whole bench with its defaults and a mistyped flag (`--second=8`) was silently a default.
// The flags themselves are still read where each bench reads them (arg and flag in
// common.ts, or process.argv); this only knows their names.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface BenchArgsOptions {
  /**
   * `make bench ARGS=...` hands the same flags to several scripts (see the Makefile), each
   * reading its own: for those an unknown flag is named on stderr and the run goes on.
   */
  sharedArgs?: boolean;
}

/** The comment at the head of the file at `moduleUrl` (tsc keeps it in dist), without its slashes. */
export function usageOf(moduleUrl: string): string {
  const lines: string[] = [];
  for (const line of readFileSync(fileURLToPath(moduleUrl), 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n');
}

/**
 * Exits on --help (0) or on a --flag whose name (before any `=`) is not in `known` (2);
 * returns otherwise. Arguments not starting with `--` are the bench's own business.
 */
export function checkBenchArgs(moduleUrl: string, known: readonly string[], opts: BenchArgsOptions = {}, argv = process.argv.slice(2)): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usageOf(moduleUrl)}\n`);
    process.exit(0);
  }
  const unknown = argv.filter((a) => a.startsWith('--') && !known.includes(a.slice(2).split('=')[0]));
  if (unknown.length === 0) return;
  if (opts.sharedArgs) {
    process.stderr.write(`not read by this bench (make bench hands ARGS to several): ${unknown.join(' ')}\n`);
    return;
  }
  process.stderr.write(`unknown flag${unknown.length > 1 ? 's' : ''}: ${unknown.join(' ')}\n\n${usageOf(moduleUrl)}\n`);
  process.exit(2);
}
