// The node flags kube-apiserver ships with, from bin/node-flags (one line, which
// bin/kube-apiserver reads with the shell's `read`). Every start of a replica takes them
// (bin/kube-apiserver, the startup snapshot's builder, the test harness and so the
// benchmarks, the test API), and the build writes its code cache for them: V8 takes a
// code cache or a snapshot only under the flags it was made with. A user's NODE_OPTIONS
// still wins. What ships: a young generation of 8 MiB from the start (from the startup
// snapshot: two scavenges before ready instead of about ten, and no mark-compact; ~35 ms
// less CPU until ready, ~7 MiB more idle RSS); its cap stays Node's 16 MiB semi-spaces, as 32 and 64 showed no
// clear gain in CPU per request and 64 longer scavenge pauses under the cluster load
// (docs/scaling.md, "Where a replica's time goes"). And no memory reducer: V8 starts it
// when no mark-compact ran for 100 s (its watchdog) or the allocation rate drops, and its
// mark-compacts shrink the heap by compacting every fragmented page and sweeping dead
// buffers' memory in the pause; under the 1,000-node load they were the longest pauses a
// replica took (325-797 ms against at most 175 ms for the others in the same run), and a
// server under load gains nothing from giving memory back between them (docs/scaling.md,
// "Where a replica's loop stops").
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const nodeFlagsFile = fileURLToPath(new URL('../../bin/node-flags', import.meta.url));

export function shippedNodeFlags(): string[] {
  return readFileSync(nodeFlagsFile, 'utf8').split('\n')[0]!.split(' ').filter(Boolean);
}

/**
 * The shipped flags for node's command line but those the environment's NODE_OPTIONS
 * names, as bin/kube-apiserver does: node applies NODE_OPTIONS before its command line
 * and V8 takes a flag's last value, so that a user's own setting wins.
 */
export function shippedNodeFlagsUnder(env: NodeJS.ProcessEnv): string[] {
  return flagsNotNamedIn(shippedNodeFlags(), env['NODE_OPTIONS'] ?? '');
}

export function flagsNotNamedIn(flags: string[], nodeOptions: string): string[] {
  const named = new Set(nodeOptions.split(' ').filter(Boolean).map((f) => f.split('=')[0]));
  return flags.filter((f) => !named.has(f.split('=')[0]));
}
