// Times, bytes and quantities as decoding into upstream's Go types leaves them: a
// metav1.Time is served in UTC to the second, a MicroTime to the microsecond, Go's zero
// time as null, []byte as standard padded base64 and a resource.Quantity in canonical
// form ("1000m" -> "1", "1024Mi" -> "1Gi"), whatever spelling the body used. Rewriting them
// at decode makes that form what admission, the field manager, storage and the response
// see, so a write that only respells a stored value changes nothing. Custom resources
// keep what was sent, as upstream's unstructured objects do.
import { type ChangedRegion, regionAt } from '../../changed-region.js';
import { canonicalBase64 } from '../../literal-decoders.js';
import { isPlainObject } from '../../object.js';
import { canonicalQuantityString } from '../../../util/quantity/index.js';
import { canonicalRFC3339 } from './gotime.js';
import { messageFields, messageForKind, type FieldDesc } from './schema.js';
import { special } from './special-types.js';

type Obj = Record<string, unknown>;
type Rewrite = (v: unknown) => unknown;

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';
/** A time that does not parse stays as sent: the type check before this has rejected it. */
const timeTo = (fractionDigits: number): Rewrite => (v) => {
  if (typeof v !== 'string') return v;
  // Nearly every Time a body carries is the server's own (creationTimestamp, managedFields):
  // checked, twenty characters and a Z is already the form, unless it is the zero time.
  if (fractionDigits === 0 && v.length === 20 && v.charCodeAt(19) === 90 && !v.startsWith('0001-')) return v;
  const out = canonicalRFC3339(v, fractionDigits);
  return out === undefined ? v : out;
};
const toSecond = timeTo(0);
const toMicrosecond = timeTo(6);
const toBase64: Rewrite = (v) => (typeof v === 'string' ? canonicalBase64(v) : v);
/**
 * A quantity as its canonical string: a JSON number too, and a null in a ResourceList
 * (Quantity's UnmarshalJSON takes the null as zero). What does not parse stays as sent.
 */
const toQuantity: Rewrite = (v) => {
  if (v === null) return '0';
  const text = typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined;
  return (text === undefined ? undefined : canonicalQuantityString(text)) ?? v;
};

/** How a field's own value is rewritten, if it is a time, bytes or a quantity. */
function rewriteOf(f: FieldDesc): Rewrite | undefined {
  if (f.m === `${meta}.Time`) return toSecond;
  if (f.m === `${meta}.MicroTime`) return toMicrosecond;
  if (f.m === 'k8s.io.apimachinery.pkg.api.resource.Quantity') return toQuantity;
  // '-' names the raw JSON of FieldsV1, RawExtension and JSON: special messages, never walked.
  if (f.t === 'bytes' && f.j !== '-') return toBase64;
  return undefined;
}

/**
 * Rewrites, in place, the times, bytes and quantities of `obj` (a built-in `kind` of
 * `apiVersion`) in the form upstream serves. `region`: where `obj` may differ from a
 * decoded object, whose values are in that form already.
 */
export function canonicalizeDecodedForms(obj: Obj, apiVersion: string, kind: string, region: ChangedRegion = true): void {
  const message = messageForKind(apiVersion, kind);
  if (message) walk(obj, message, region);
}

interface Step { f: FieldDesc; rewrite?: Rewrite }

function walk(obj: Obj, message: string, region: ChangedRegion): void {
  for (const { f, rewrite } of stepsOf(message)) {
    if (f.i) {
      walk(obj, f.m!, region);
      continue;
    }
    const r = regionAt(region, f.j);
    if (r === undefined) continue;
    const v = obj[f.j];
    if (v === undefined || v === null) continue;
    if (rewrite) {
      if (f.r === 2 && isPlainObject(v)) {
        for (const key of Object.keys(v)) if (regionAt(r, key) !== undefined) v[key] = rewrite(v[key]);
      } else if (f.r === 1 && Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) v[i] = rewrite(v[i]);
      } else if (!f.r) {
        obj[f.j] = rewrite(v);
      }
    } else if (f.r === 1 && Array.isArray(v)) {
      // A merge patch replaces a list whole.
      for (const item of v) if (isPlainObject(item)) walk(item, f.m!, true);
    } else if (f.r === 2 && isPlainObject(v)) {
      for (const key of Object.keys(v)) {
        const item = v[key];
        const ri = regionAt(r, key);
        if (ri !== undefined && isPlainObject(item)) walk(item, f.m!, ri);
      }
    } else if (!f.r && isPlainObject(v)) {
      walk(v, f.m!, r);
    }
  }
}

const stepsByMessage = new Map<string, Step[]>();

/** The fields of `message` that hold a time, bytes or a quantity, or a message that may. */
function stepsOf(message: string): Step[] {
  let out = stepsByMessage.get(message);
  if (!out) {
    out = [];
    for (const f of messageFields(message) ?? []) {
      const rewrite = rewriteOf(f);
      if (rewrite) out.push({ f, rewrite });
      else if (f.t === 'msg' && f.m !== undefined && reachesRewrite(f.m)) out.push({ f });
    }
    stepsByMessage.set(message, out);
  }
  return out;
}

const reaches = new Map<string, boolean>();

/** Whether a time, bytes or quantity field is anywhere below `message` (a search of the message graph, cycles included). */
function reachesRewrite(message: string): boolean {
  let answer = reaches.get(message);
  if (answer === undefined) {
    answer = false;
    const seen = new Set([message]);
    const queue = [message];
    while (queue.length > 0 && !answer) {
      const m = queue.pop()!;
      if (special.has(m)) continue;
      for (const f of messageFields(m) ?? []) {
        if (rewriteOf(f)) answer = true;
        if (f.m === undefined || seen.has(f.m)) continue;
        seen.add(f.m);
        queue.push(f.m);
      }
    }
    reaches.set(message, answer);
  }
  return answer;
}
