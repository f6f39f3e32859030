// Field paths and FieldError constructors, mirroring upstream's field package so that
// validators read like upstream's and produce the same paths and details.
import type { FieldError } from '../../runtime/errors.js';

/** `metadata` + `name` -> `metadata.name`; an empty parent yields the child alone. */
export function child(path: string, ...names: string[]): string {
  return names.reduce((p, n) => (p ? `${p}.${n}` : n), path);
}

/** `rules` + 0 -> `rules[0]`. */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** `data` + `a.b` -> `data[a.b]` (upstream does not quote map keys). */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}

export function required(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, detail };
}

export function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value, detail };
}

export function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

export function notSupported(field: string, value: unknown, validValues: string[]): FieldError {
  const detail = validValues.length > 0
    ? `supported values: ${validValues.map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field, value, detail };
}

export function duplicate(field: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field, value };
}

/** The value is never echoed: it may be huge (a whole ConfigMap). */
export function tooLong(field: string, maxLength: number): FieldError {
  return { type: 'FieldValueTooLong', field, detail: `must have at most ${maxLength} bytes` };
}

export function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: actual, detail: `must have at most ${max} items` };
}

/** Drops exact repeats, as upstream's aggregate does when it renders the message. */
export function dedupe(errs: FieldError[]): FieldError[] {
  // Nearly every write is valid: no Set and no copy for a list that cannot repeat.
  if (errs.length < 2) return errs;
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = JSON.stringify([e.type, e.field, e.value, e.detail]);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Byte length as Go's len() counts it on a string. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function notFound(field: string, value: unknown): FieldError {
  return { type: 'FieldValueNotFound', field, value };
}
