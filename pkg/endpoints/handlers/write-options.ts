// CreateOptions, UpdateOptions and PatchOptions from the query, validated together as
// upstream does (one 422 listing every problem), and the field manager a write is
// recorded under: the one named, else the User-Agent's product name.
import { isPrintable, isPrintableAscii } from '../../apis/validation/objectmeta.js';
import { errors, type FieldError } from '../../runtime/errors.js';
import type { FieldValidation } from '../fieldvalidation/index.js';
import type { RequestScope } from '../../registry/generic/store.js';
import { requestScope, type HandlerScope } from './scope.js';

export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

export interface WriteOptions {
  dryRun: boolean;
  /** As sent; '' when not. */
  fieldManager: string;
  fieldValidation: FieldValidation;
  /** Apply only. */
  force: boolean;
}

export const fieldManagerMaxLength = 128;

/** Go's strconv.Quote for the strings a query can carry. */
export function goQuote(s: string): string {
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (named[ch]) out += named[ch];
    else if (isPrintable(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** dryRun's refusal, with the values printed as Go prints a []string. */
export function dryRunNotSupported(values: unknown[]): FieldError {
  const shown = `[]string{${values.map((v) => goQuote(String(v))).join(', ')}}`;
  return { type: 'FieldValueNotSupported', field: 'dryRun', detail: `${shown}: supported values: "All"` };
}

export function validateFieldManager(fieldManager: string, path = 'fieldManager'): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fieldManager, 'utf8') > fieldManagerMaxLength) {
    errs.push({ type: 'FieldValueTooLong', field: path, detail: `must have at most ${fieldManagerMaxLength} bytes` });
  }
  if (isPrintableAscii(fieldManager)) return errs;
  let pos = 0;
  for (const ch of fieldManager) {
    if (!isPrintable(ch)) {
      const cp = ch.codePointAt(0)!;
      // The value goes into the detail to print it as Go's %q does.
      errs.push({ type: 'FieldValueInvalid', field: path,
        detail: `${goQuote(fieldManager)}: invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${pos})` });
    }
    pos += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

export function parseWriteOptions(query: URLSearchParams, kind: WriteOptionsKind, patch?: { apply: boolean }): WriteOptions {
  const errs: FieldError[] = [];
  const fieldManager = query.get('fieldManager') ?? '';
  const forceValues = query.getAll('force');
  if (patch && !patch.apply && forceValues.length > 0) {
    errs.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
  }
  if (patch?.apply && !fieldManager) {
    errs.push({ type: 'FieldValueRequired', field: 'fieldManager', detail: 'is required for apply patch' });
  }
  errs.push(...validateFieldManager(fieldManager));
  const dryRun = query.getAll('dryRun');
  if (dryRun.some((v) => v !== 'All')) errs.push(dryRunNotSupported(dryRun));
  const fv = query.get('fieldValidation') ?? '';
  if (!['', 'Ignore', 'Warn', 'Strict'].includes(fv)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'fieldValidation', value: fv, detail: 'supported values: "", "Ignore", "Strict", "Warn"' });
  }
  if (errs.length > 0) throw errors.invalid('meta.k8s.io', kind, '', errs);
  // A bool query parameter is true unless it is "0" or "false" (upstream's conversion).
  const f = forceValues[0];
  return {
    dryRun: dryRun.length > 0,
    fieldManager,
    fieldValidation: (fv || 'Warn') as FieldValidation,
    force: f !== undefined && f !== '0' && f.toLowerCase() !== 'false',
  };
}

/**
 * The manager an Update is recorded as: the one given, else the User-Agent up to its
 * first "/", else `unknown` (what upstream records for clients that send no User-Agent).
 */
export function managerOrUserAgent(manager: string, userAgent: string | undefined): string {
  if (manager) return manager;
  const product = (userAgent ?? '').split('/')[0]!;
  // One byte a character, all of them kept.
  if (isPrintableAscii(product)) return product.slice(0, fieldManagerMaxLength) || 'unknown';
  let out = '';
  for (const ch of product) {
    if (!isPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch, 'utf8') > fieldManagerMaxLength) break;
    out += ch;
  }
  return out || 'unknown';
}

/** The registry scope of a write: dry run, the field manager it is recorded as, a warnings sink. */
export function writeScope(h: HandlerScope, opts: WriteOptions): RequestScope {
  // What admission webhooks see as request.options (the kind is added by operation).
  const sent: Record<string, unknown> = {};
  if (opts.dryRun) sent.dryRun = ['All'];
  if (opts.fieldManager) sent.fieldManager = opts.fieldManager;
  const fv = h.query.get('fieldValidation');
  if (fv) sent.fieldValidation = fv;
  return {
    ...requestScope(h, opts.dryRun),
    fieldManager: managerOrUserAgent(opts.fieldManager, h.ctx.get('user-agent')),
    warnings: [],
    admissionOptions: sent,
  };
}
