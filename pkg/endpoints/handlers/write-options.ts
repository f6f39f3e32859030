// CreateOptions, UpdateOptions and PatchOptions from the query, validated together as
// upstream does (one 422 listing every problem), and the field manager a write is
// recorded under: the one named, else the User-Agent's product name.
import { FieldManagerMaxLength, validateFieldManager } from '../../apis/validation/objectmeta.js';
import { goQuote, isPrintable, isPrintableAscii } from '../../runtime/gofmt.js';
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

/** dryRun's refusal, with the values printed as Go prints a []string. */
export function dryRunNotSupported(values: unknown[]): FieldError {
  const shown = `[]string{${values.map((v) => goQuote(String(v))).join(', ')}}`;
  return { type: 'FieldValueNotSupported', field: 'dryRun', detail: `${shown}: supported values: "All"` };
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
  errs.push(...validateFieldManager(fieldManager, 'fieldManager'));
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
  if (isPrintableAscii(product)) return product.slice(0, FieldManagerMaxLength) || 'unknown';
  let out = '';
  for (const ch of product) {
    if (!isPrintable(ch)) continue;
    if (Buffer.byteLength(out + ch, 'utf8') > FieldManagerMaxLength) break;
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
  // Added to requestScope's own object: a spread of it with members added costs about
  // 1 us per write in Node 20, these stores a few nanoseconds.
  const scope = requestScope(h, opts.dryRun);
  scope.fieldManager = managerOrUserAgent(opts.fieldManager, h.ctx.get('user-agent'));
  scope.warnings = [];
  scope.admissionOptions = sent;
  return scope;
}
