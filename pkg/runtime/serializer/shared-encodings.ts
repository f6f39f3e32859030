// Encodings of the objects the watch cache shares between requests, kept beside them.
// Why: a list served from the cache encoded every item again on every request: for 2,000
// ConfigMaps, 2,000 JSON.stringify calls and two megabytes of short-lived strings per
// list, whose collection (scavenges of 20 ms and more under a LIST flood) stalled every
// other request. A cached object never changes once stored (writers replace it, readers
// share it), so its bytes for one output type are computed once per object version.
//
// Handlers see typed views of those objects (a shallow copy with apiVersion and kind put
// first), not the objects themselves; an encoding is reused only while the view still
// holds exactly the shared object's members, so a caller that replaced a member of its
// view gets a fresh encoding.

type Obj = Record<string, unknown>;

const shared = new WeakSet<object>();
const sources = new WeakMap<object, Obj>();
const encodings = new WeakMap<object, Map<string, Buffer>>();

/** Marks `obj` as never changing again (the watch cache's stored objects); returns it. */
export function markShared<T extends object>(obj: T): T {
  shared.add(obj);
  return obj;
}

/** Records that `view` is `{ apiVersion, kind, ...source }` of a shared `source`. */
export function recordView(view: Obj, source: Obj): void {
  if (shared.has(source)) sources.set(view, source);
}

/** The shared object `item` is still exactly a typed view of, if any. */
function sourceOf(item: Obj): Obj | undefined {
  const source = sources.get(item);
  if (!source) return undefined;
  let members = 0;
  for (const k in item) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (item[k] !== source[k]) return undefined;
    members++;
  }
  for (const k in source) if (k !== 'apiVersion' && k !== 'kind') members--;
  return members === 0 ? source : undefined;
}

/**
 * `encode(item)`, computed once per shared object, output `format` and type; undefined
 * when `item` is not a view of a shared object (the caller encodes it as usual). The bytes
 * get a buffer of their own: a small Buffer from Node's pool would keep its whole slab alive.
 */
export function sharedEncoding(item: Obj, format: string, encode: (item: Obj) => string | Uint8Array): Buffer | undefined {
  const source = sourceOf(item);
  if (!source) return undefined;
  const key = `${format} ${String(item.apiVersion)} ${String(item.kind)}`;
  let byType = encodings.get(source);
  if (!byType) encodings.set(source, (byType = new Map()));
  let bytes = byType.get(key);
  if (!bytes) byType.set(key, (bytes = own(encode(item))));
  return bytes;
}

function own(v: string | Uint8Array): Buffer {
  const b = Buffer.allocUnsafeSlow(typeof v === 'string' ? Buffer.byteLength(v) : v.length);
  if (typeof v === 'string') b.write(v);
  else b.set(v);
  return b;
}
