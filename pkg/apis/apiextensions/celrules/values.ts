// A custom resource's JSON as the CEL value a rule sees: object properties under their
// escaped names (only those the schema declares, and at a resource root only apiVersion,
// kind, metadata.name and metadata.generateName), integers as ints and numbers as
// doubles, date/date-time strings as timestamps, duration strings as durations, byte
// strings as bytes; where the schema says nothing (int-or-string, preserved unknown
// fields) the JSON is taken as it is.
import type { CelInput } from '@bufbuild/cel';
import { protobuf, wkt } from '../../../cel/runtime.js';
import { toCel } from '../../../cel/value.js';
import { isPlainObject } from '../../../runtime/object.js';
import type { JSONSchemaProps } from '../types.js';
import { additionalOf, escapeName, itemsOf, propertiesOf, withTypeAndObjectMeta } from './types.js';

/**
 * `counterpart` (for an old value: the new one) aligns set and map lists: upstream
 * compares those lists regardless of order, so the old list is put in the new one's
 * order (matching elements by value or by key) and plain list equality agrees.
 */
export function toRuleValue(v: unknown, s: JSONSchemaProps, isResourceRoot: boolean, counterpart?: unknown): CelInput {
  if (v === null || v === undefined) return null;
  if (s['x-kubernetes-int-or-string'] === true) return toCel(v);
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  if (Array.isArray(v)) {
    const items = itemsOf(s);
    const { list, partners } = align(v, s, counterpart);
    return list.map((x, i) => (items ? toRuleValue(x, items, items['x-kubernetes-embedded-resource'] === true, partners[i]) : toCel(x)));
  }
  if (isPlainObject(v)) {
    const extra = additionalOf(s);
    const props = propertiesOf(s);
    if (!extra && props.length === 0) return toCel(v);
    const other = isPlainObject(counterpart) ? counterpart : undefined;
    const out: Record<string, CelInput> = {};
    if (extra) {
      for (const [k, x] of Object.entries(v)) {
        if (x !== undefined) out[k] = toRuleValue(x, extra, extra['x-kubernetes-embedded-resource'] === true, other?.[k]);
      }
      return out;
    }
    for (const [k, ps] of props) {
      const name = escapeName(k);
      const x = v[k];
      if (name !== undefined && x !== undefined) out[name] = toRuleValue(x, ps, ps['x-kubernetes-embedded-resource'] === true, other?.[k]);
    }
    return out;
  }
  if (typeof v === 'number') return s.type === 'number' ? v : toCel(v);
  if (typeof v === 'string' && s.type === 'string') {
    switch (s.format) {
      case 'date-time': case 'date': {
        const d = new Date(s.format === 'date' ? `${v}T00:00:00Z` : v);
        return Number.isNaN(d.getTime()) ? v : (wkt().timestampFromDate(d) as unknown as CelInput);
      }
      case 'duration': {
        const nanos = parseGoDuration(v);
        if (nanos === undefined) return v;
        return protobuf().create(wkt().DurationSchema, { seconds: nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) }) as unknown as CelInput;
      }
      case 'byte':
        return new Uint8Array(Buffer.from(v, 'base64'));
      default: break;
    }
  }
  return toCel(v);
}

const units: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** Go's time.ParseDuration, in nanoseconds; undefined when it does not parse. */
export function parseGoDuration(s: string): bigint | undefined {
  let rest = s;
  let sign = 1n;
  if (rest.startsWith('-') || rest.startsWith('+')) { if (rest[0] === '-') sign = -1n; rest = rest.slice(1); }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  while (rest !== '') {
    const m = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/.exec(rest);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = units[m[3]!]!;
    total += BigInt(m[1] || '0') * unit;
    if (m[2]) total += (BigInt(m[2]) * unit) / 10n ** BigInt(m[2].length);
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

/** The list in its counterpart's order (set and map lists only), with each element's counterpart. */
function align(list: unknown[], s: JSONSchemaProps, counterpart: unknown): { list: unknown[]; partners: unknown[] } {
  const other = Array.isArray(counterpart) ? counterpart : undefined;
  const type = s['x-kubernetes-list-type'];
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? (s['x-kubernetes-list-map-keys'] as string[]) : [];
  if (!other || (type !== 'set' && !(type === 'map' && keys.length > 0))) return { list, partners: list.map((_, i) => other?.[i]) };
  const identity = (x: unknown): string => JSON.stringify(type === 'map' && isPlainObject(x) ? keys.map((k) => x[k] ?? null) : x);
  const unused = new Map<string, number[]>();
  list.forEach((x, i) => unused.set(identity(x), [...(unused.get(identity(x)) ?? []), i]));
  const order: number[] = [];
  const partners: unknown[] = [];
  for (const o of other) {
    const i = unused.get(identity(o))?.shift();
    if (i !== undefined) { order.push(i); partners.push(o); }
  }
  const taken = new Set(order);
  list.forEach((_, i) => { if (!taken.has(i)) { order.push(i); partners.push(undefined); } });
  return { list: order.map((i) => list[i]), partners };
}
