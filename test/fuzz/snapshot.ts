// The stored state a rejected request must leave alone: every key under the server's etcd
// prefix with its mod revision (keys only, so one range per check stays cheap), minus the
// keys the server itself rewrites on a timer (leases, events, the kubernetes endpoints).
import type { Etcd3 } from 'etcd3';

export type Snapshot = Map<string, string>;

/** Written by the server's own loops, whatever clients do. */
const background = [/\/leases\//, /\/masterleases\//, /\/events\//, /\/services\/endpoints\/default\/kubernetes$/,
  /\/endpointslices\/default\/kubernetes$/, /\/apiregistration\.k8s\.io\/apiservices\//, /\/flowschemas\//, /\/prioritylevelconfigurations\//];

export async function snapshot(etcd: Etcd3, prefix: string): Promise<Snapshot> {
  const start = Buffer.from(`${prefix}/`);
  const end = Buffer.from(start);
  end[end.length - 1]! += 1;
  const res = await etcd.kv.range({ key: start, range_end: end, keys_only: true });
  const out: Snapshot = new Map();
  for (const kv of res.kvs) {
    const key = kv.key.toString();
    if (!background.some((re) => re.test(key))) out.set(key, String(kv.mod_revision));
  }
  return out;
}

/** Keys added, removed or rewritten between two snapshots. */
export function diff(before: Snapshot, after: Snapshot): string[] {
  const changed: string[] = [];
  for (const [k, rev] of after) {
    const was = before.get(k);
    if (was === undefined) changed.push(`+${k}`);
    else if (was !== rev) changed.push(`~${k}`);
  }
  for (const k of before.keys()) if (!after.has(k)) changed.push(`-${k}`);
  return changed;
}
