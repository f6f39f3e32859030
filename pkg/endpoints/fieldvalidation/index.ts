// fieldValidation=Strict|Warn|Ignore for create, update, patch and apply: which
// problems of a body are reported, in upstream's order and words, and how (a failed
// request for Strict, Warning headers for Warn, nothing for Ignore).
import type Koa from 'koa';
import { errors, type StatusError } from '../../runtime/errors.js';
import type { ChangedRegion } from '../../runtime/changed-region.js';
import { strictDecodingFailure } from '../../openapi/unknown-fields.js';
import { duplicateJsonKeys, scanJsonKeys } from './json-keys.js';
export { floatLiterals } from './json-keys.js';
import { documentUnknownFields, sortedUnknownFields, type TypeRef } from './unknown.js';
import { addWarnings } from './warnings.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export { decodeYamlBody } from './yaml-body.js';
export { keysAppearOnce } from './repeated-keys.js';
export { documentUnknownFields, dropUnknownFields, sortedCopy, typeRefOf, type Pruning, type TypeRef } from './unknown.js';
export { addWarnings, warningHeader } from './warnings.js';

/**
 * The strict-decoding problems of one request. YAML duplicate keys are one error
 * ("yaml: unmarshal errors:" with a line each) but one warning per line.
 */
export interface StrictReport {
  yamlLines: string[];
  errors: string[];
}

export const emptyReport = (): StrictReport => ({ yamlLines: [], errors: [] });

export function isEmpty(r: StrictReport): boolean {
  return r.yamlLines.length === 0 && r.errors.length === 0;
}

export function strictMessages(r: StrictReport): string[] {
  const yaml = r.yamlLines.length > 0 ? [`yaml: unmarshal errors:\n${r.yamlLines.map((l) => `  ${l}`).join('\n')}`] : [];
  return [...yaml, ...r.errors];
}

export function warningTexts(r: StrictReport): string[] {
  return [...r.yamlLines, ...r.errors];
}

const unknownMsg = (p: string): string => `unknown field ${JSON.stringify(p)}`;
const duplicateMsg = (p: string): string => `duplicate field ${JSON.stringify(p)}`;

/**
 * Unknown and duplicate fields of a JSON body, interleaved in document order as the
 * strict JSON decoder meets them; a field both unknown and repeated counts as unknown.
 * `unknown`: the body's unknown fields, when the caller has found them already.
 */
export function jsonBodyIssues(t: TypeRef, text: string, body: unknown, unknown = documentUnknownFields(t, body)): string[] {
  if (unknown.length === 0) return duplicateJsonKeys(text).map((o) => duplicateMsg(o.path));
  const occurrences = scanJsonKeys(text);
  const first = new Map<string, number>();
  for (const o of occurrences) if (!first.has(o.path)) first.set(o.path, o.order);
  const under = (p: string): boolean => unknown.some((u) => p === u || p.startsWith(`${u}.`) || p.startsWith(`${u}[`));
  const events = [
    ...unknown.map((u) => ({ order: first.get(u) ?? Number.MAX_SAFE_INTEGER, msg: unknownMsg(u) })),
    ...occurrences.filter((o) => o.duplicate && !under(o.path)).map((o) => ({ order: o.order, msg: duplicateMsg(o.path) })),
  ];
  return events.sort((a, b) => a.order - b.order).map((e) => e.msg);
}

/** Repeated keys of a JSON document (a patch), with a prefix for JSON patch operations. */
export function jsonDuplicateIssues(text: string, prefix = ''): string[] {
  return duplicateJsonKeys(text).map((o) => `${prefix}${duplicateMsg(o.path)}`);
}

/** Unknown fields of an object that was re-encoded (YAML bodies, patch results): sorted order. */
export function sortedUnknownIssues(t: TypeRef, obj: unknown, region: ChangedRegion = true): string[] {
  return sortedUnknownFields(t, obj, region).map(unknownMsg);
}

/** JSON patch operations may only name op, path, from and value. */
export function jsonPatchOperationIssues(text: string, ops: unknown): string[] {
  if (!Array.isArray(ops)) return [];
  const known = new Set(['op', 'path', 'from', 'value']);
  const out: Array<{ order: number; msg: string }> = [];
  const occurrences = scanJsonKeys(text);
  for (const o of occurrences) {
    const m = /^\[(\d+)\]\.([^.[]+)$/.exec(o.path);
    if (!m) continue;
    if (!known.has(m[2])) {
      if (!o.duplicate) out.push({ order: o.order, msg: `json patch unknown field ${JSON.stringify(o.path)}` });
    } else if (o.duplicate) {
      out.push({ order: o.order, msg: `json patch duplicate field ${JSON.stringify(o.path)}` });
    }
  }
  for (const o of occurrences) {
    if (o.duplicate && /^\[\d+\]\.value[.[]/.test(o.path)) out.push({ order: o.order, msg: `json patch duplicate field ${JSON.stringify(o.path)}` });
  }
  return out.sort((a, b) => a.order - b.order).map((e) => e.msg);
}

/** Create and update: Strict fails with 400, Warn adds warnings. */
export function reportDecodeIssues(ctx: Koa.Context, directive: FieldValidation, t: TypeRef, r: StrictReport): void {
  if (directive === 'Ignore' || isEmpty(r)) return;
  if (directive === 'Strict') throw strictDecodingFailure(t.version, t.kind, strictMessages(r));
  addWarnings(ctx, warningTexts(r));
}

/**
 * Patches: Strict fails with upstream's 422 on the `patch` field; Warn adds warnings.
 * `patched`: how the failure shows the patch, rendered only when a Strict request fails.
 */
export function reportPatchIssues(ctx: Koa.Context, directive: FieldValidation, r: StrictReport, patched: () => string): void {
  if (directive === 'Ignore' || isEmpty(r)) return;
  if (directive === 'Strict') throw patchStrictFailure(patched(), strictMessages(r));
  addWarnings(ctx, warningTexts(r));
}

export function patchStrictFailure(patched: string, messages: string[]): StatusError {
  return patchDecodeFailure(patched, `strict decoding error: ${messages.join(', ')}`);
}

/** Upstream's patchers' 422 when the patched object does not decode: the object shown, the decoder's error. */
export function patchDecodeFailure(patched: string, detail: string): StatusError {
  return errors.invalid('', '', '', [{ type: 'FieldValueInvalid', field: 'patch', value: patched, detail }]);
}

/** Go's %+v of a decoded JSON value (how upstream shows a strategic merge patch). */
export function goValueString(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValueString).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o).sort().map((k) => `${k}:${goValueString(o[k])}`).join(' ')}]`;
  }
  return String(v);
}
