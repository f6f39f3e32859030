// Path elements of a field set, in the two textual forms upstream uses: the FieldsV1
// keys stored in managedFields (`f:name`, `k:{"name":"x"}`, `v:"a"`, `i:0`) and the
// form conflict messages print (`.name`, `[name="x"]`, `[="a"]`, `[0]`).
import { goQuote } from '../../../runtime/gofmt.js';
import { isPlainObject } from '../../../runtime/object.js';

export type PathElement =
  /** `key`: its FieldsV1 key, made once (see field()). */
  | { kind: 'field'; name: string; key?: string }
  /** An associative-list item by its key fields, sorted by field name. */
  | { kind: 'key'; fields: Array<[string, unknown]> }
  /** A set-list item by its value. */
  | { kind: 'value'; value: unknown }
  | { kind: 'index'; index: number };

export type Path = PathElement[];

/**
 * Field elements by name, each with its key: every write compares its whole object and
 * builds its owners' sets, naming the same few dozen fields (apiVersion, metadata, name,
 * data...) with a new element and a new key string each time. Bounded: names are the
 * clients' (map keys, labels); elements are never changed, so sharing them is safe.
 */
const fieldElements = new Map<string, PathElement>();
const fieldElementsKept = 4096;

export function field(name: string): PathElement {
  let pe = fieldElements.get(name);
  if (pe === undefined) {
    if (fieldElements.size >= fieldElementsKept) fieldElements.clear();
    pe = Object.freeze({ kind: 'field', name, key: `f:${name}` } as const);
    fieldElements.set(name, pe);
  }
  return pe;
}

export function keyElement(fields: Array<[string, unknown]>): PathElement {
  return { kind: 'key', fields: [...fields].sort(([a], [b]) => compareStrings(a, b)) };
}

/** JSON with object keys sorted, the canonical text of a value inside a path element. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v).sort(compareStrings);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** The FieldsV1 key of an element; also its identity inside a set. */
export function elementKey(pe: PathElement): string {
  switch (pe.kind) {
    case 'field': return pe.key ?? `f:${pe.name}`;
    case 'key': return `k:{${pe.fields.map(([n, v]) => `${JSON.stringify(n)}:${canonicalJson(v)}`).join(',')}}`;
    case 'value': return `v:${canonicalJson(pe.value)}`;
    case 'index': return `i:${pe.index}`;
  }
}

export class PathParseError extends Error {}

/** Parses a FieldsV1 key back into an element. */
export function parseElementKey(key: string): PathElement {
  const tag = key.slice(0, 2);
  const body = key.slice(2);
  switch (tag) {
    case 'f:': return field(body);
    case 'v:': return { kind: 'value', value: parseJson(body, key) };
    case 'i:': {
      if (!/^-?\d+$/.test(body)) throw new PathParseError(`parsing index ${JSON.stringify(body)}: invalid syntax`);
      return { kind: 'index', index: Number(body) };
    }
    case 'k:': {
      const v = parseJson(body, key);
      if (!isPlainObject(v)) throw new PathParseError(`expected key value pairs in ${JSON.stringify(key)}`);
      return keyElement(Object.entries(v));
    }
    default:
      throw new PathParseError(`unknown path element tag in ${JSON.stringify(key)}`);
  }
}

function parseJson(text: string, key: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new PathParseError(`parsing JSON in ${JSON.stringify(key)}: ${(err as Error).message}`);
  }
}

/** smd's value.ToString: strings quoted, maps as k=v pairs, lists bracketed. */
function valueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  if (isPlainObject(v)) return Object.keys(v).sort(compareStrings).map((k) => `${k}=${valueString(v[k])}`).join('');
  return String(v);
}

/** The conflict-message form of a path: `.data.key`, `.spec.ports[name="http"]`. */
export function pathString(path: Path): string {
  return path.map((pe) => {
    switch (pe.kind) {
      case 'field': return `.${pe.name}`;
      case 'key': return `[${pe.fields.map(([n, v]) => `${n}=${valueString(v)}`).join(',')}]`;
      case 'value': return `[=${valueString(pe.value)}]`;
      case 'index': return `[${pe.index}]`;
    }
  }).join('');
}

/** Byte-wise order, as Go compares strings (equal to code-unit order for ASCII). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const kindRank: Record<PathElement['kind'], number> = { field: 0, key: 1, value: 2, index: 3 };

/** smd's PathElement order: fields, then keys, then values, then indices. */
export function compareElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] - kindRank[b.kind];
  switch (a.kind) {
    case 'field': return compareStrings(a.name, (b as typeof a).name);
    case 'index': return a.index - (b as typeof a).index;
    case 'value': return compareValues(a.value, (b as typeof a).value);
    case 'key': {
      const bf = (b as typeof a).fields;
      for (let i = 0; ; i++) {
        if (i >= a.fields.length && i >= bf.length) return 0;
        if (i >= a.fields.length) return -1;
        if (i >= bf.length) return 1;
        const c = compareStrings(a.fields[i][0], bf[i][0]) || compareValues(a.fields[i][1], bf[i][1]);
        if (c !== 0) return c;
      }
    }
  }
}

function typeRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isPlainObject(v)) return 4;
  return 5;
}

/** smd's value order: numbers, strings, booleans, lists, maps, null. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number') return a === b ? 0 : a < (b as number) ? -1 : 1;
  if (typeof a === 'string') return compareStrings(a, b as string);
  if (typeof a === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a)) {
    const bl = b as unknown[];
    for (let i = 0; i < Math.min(a.length, bl.length); i++) {
      const c = compareValues(a[i], bl[i]);
      if (c !== 0) return c;
    }
    return a.length - bl.length;
  }
  if (isPlainObject(a)) return compareStrings(canonicalJson(a), canonicalJson(b));
  return 0;
}
