// upstream RepackSubsets: the canonical form of Endpoints subsets. Every (address, port)
// pair is expanded, addresses are de-duplicated by IP and target UID (not-ready wins
// over ready), and addresses offering the same set of ports share one subset.
// Upstream orders ports and subsets by a hash of their contents; we order them by their
// JSON text, which is as stable but not the same order when a set has several entries.
import { isPlainObject } from '../../../runtime/object.js';
import { arr, type Obj } from '../../../apis/core/types.js';

function addressKey(a: Obj): string {
  const ref = isPlainObject(a.targetRef) ? a.targetRef : {};
  return JSON.stringify([a.ip ?? '', ref.uid ?? '']);
}

const compare = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
/** By IP, then target UID (upstream's addrsByIPAndUID). */
const compareAddresses = (a: Obj, b: Obj): number => compare(addressKey(a), addressKey(b));
const byText = (a: unknown, b: unknown): number => compare(JSON.stringify(a), JSON.stringify(b));

export function repackSubsets(subsets: unknown): Obj[] {
  const addrs = new Map<string, Obj>();
  // port (JSON, or '' for "no ports") -> address key -> ready
  const byPort = new Map<string, Map<string, boolean>>();
  const note = (port: string, a: Obj, ready: boolean): void => {
    const k = addressKey(a);
    if (!addrs.has(k)) addrs.set(k, structuredClone(a));
    const set = byPort.get(port) ?? new Map<string, boolean>();
    byPort.set(port, set);
    if (set.get(k) !== false) set.set(k, ready);
  };
  for (const ss of arr(subsets)) {
    const ports = arr(ss.ports);
    for (const p of ports.length > 0 ? ports.map((x) => JSON.stringify(x)) : ['']) {
      for (const a of arr(ss.addresses)) note(p, a, true);
      for (const a of arr(ss.notReadyAddresses)) note(p, a, false);
    }
  }
  // Addresses with the same readiness per port share a subset with all those ports.
  const groups = new Map<string, { set: Map<string, boolean>; ports: Obj[] }>();
  for (const [port, set] of byPort) {
    const key = JSON.stringify([...set.entries()].sort((a, b) => compare(a[0], b[0])));
    const g = groups.get(key) ?? { set, ports: [] };
    groups.set(key, g);
    if (port !== '') g.ports.push(JSON.parse(port) as Obj);
  }
  const out: Obj[] = [];
  for (const { set, ports } of groups.values()) {
    const ready: Obj[] = [];
    const notReady: Obj[] = [];
    for (const [k, r] of set) (r ? ready : notReady).push(structuredClone(addrs.get(k)!));
    const ss: Obj = {};
    if (ready.length > 0) ss.addresses = ready.sort(compareAddresses);
    if (notReady.length > 0) ss.notReadyAddresses = notReady.sort(compareAddresses);
    if (ports.length > 0) ss.ports = ports.sort(byText);
    out.push(ss);
  }
  return out.sort(byText);
}
