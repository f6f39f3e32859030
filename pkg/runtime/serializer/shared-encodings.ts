// Encodings of the objects the watch cache shares between requests, kept beside them.
// Why: a list served from the cache encoded every item again on every request: for 2,000
// ConfigMaps, 2,000 JSON.stringify calls and two megabytes of short-lived strings per
// list, whose collection stalled every other request. A cached object never changes once
// stored (writers replace it, readers share it), so its bytes for one output type are
// computed once per object version.
//
// Handlers see typed views of those objects (a shallow copy with apiVersion and kind put
// first; a built-in kind's list item is a copy of that without them), not the objects
// themselves; an encoding is reused only while the view still
// holds exactly the shared object's members, so a caller that replaced a member of its
// view gets a fresh encoding. The links are symbol-keyed properties rather than WeakMaps:
// a list makes thousands of views, and WeakMap entries cost both time and collection work.
// JSON, Object.keys and for...in do not see symbol keys.

type Obj = Record<string | symbol, unknown>;

/**
 * On a shared object (not enumerable): its encodings by output format and type, null until
 * the first (every write's event makes a shared object; most are never encoded from it).
 */
const encodingsOf = Symbol('shared encodings');
/** On a view: the shared object it was made from. */
const sourceOfView = Symbol('view of');

/** Marks `obj` as never changing again (the watch cache's stored objects); returns it. */
export function markShared<T extends object>(obj: T): T {
  if (!Object.prototype.hasOwnProperty.call(obj, encodingsOf)) Object.defineProperty(obj, encodingsOf, { value: null, writable: true });
  return obj;
}

/** Whether markShared marked `obj`: the watch cache's, shared between requests. */
export function isShared(obj: object): boolean {
  return (obj as Obj)[encodingsOf] !== undefined;
}

/**
 * Drops the encodings kept for a shared object whose members changed after all: another
 * declaration of its resource (a CRD changed since) gave it defaults the first had not.
 */
export function forgetEncodings(obj: object): void {
  ((obj as Obj)[encodingsOf] as Map<string, Buffer> | null | undefined)?.clear();
}

/**
 * Records that `view` is `{ apiVersion, kind, ...source }` of `source`, if `source` is shared.
 * A plain assignment, not a non-enumerable property: Object.defineProperty cost about 0.5 us
 * a view (1.1-1.6 ms per list of 2,000 against 0.33 assigned, Node 20). Copies made by spread
 * or Object.assign carry the link along; sourceOf still compares every member before a copy
 * is given the source's bytes.
 */
export function recordView(view: object, source: object): void {
  if (isShared(source)) (view as Obj)[sourceOfView] = source;
}

/** The shared object `item` is still exactly a typed view of, if any. */
function sourceOf(item: Obj): Obj | undefined {
  const source = item[sourceOfView] as Obj | undefined;
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
export function sharedEncoding(item: Record<string, unknown>, format: string, encode: (item: Record<string, unknown>) => string | Uint8Array): Buffer | undefined {
  const source = sourceOf(item);
  if (!source) return undefined;
  let byType = source[encodingsOf] as Map<string, Buffer> | null;
  if (!byType) source[encodingsOf] = byType = new Map();
  // A built-in kind's list item has neither: its bytes are a variant of their own.
  const key = `${format} ${String(item.apiVersion ?? '')} ${String(item.kind ?? '')}`;
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
