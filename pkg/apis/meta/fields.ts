// Field selectors: upstream's string syntax (apimachinery fields.ParseSelector) and the
// per-kind check of which fields may be selected on (scheme field-label conversion).

import { errors } from '../../runtime/errors.js';

export interface FieldRequirement {
  readonly field: string;
  /** `==` is folded into `=`, as upstream does. */
  readonly operator: '=' | '!=';
  /** Unescaped value. */
  readonly value: string;
}

export interface FieldSelector {
  /** Missing fields read as the empty string, as upstream's fields.Set does. */
  matches(fields: Record<string, string>): boolean;
  empty(): boolean;
  /** Canonical form: terms sorted, values escaped. */
  toString(): string;
  requirements(): readonly FieldRequirement[];
  /** The value the selector demands for `field` with `=`, if any. */
  requiresExactMatch(field: string): string | undefined;
}

class TermsSelector implements FieldSelector {
  constructor(private readonly terms: readonly FieldRequirement[]) {}

  matches(fields: Record<string, string>): boolean {
    return this.terms.every((t) => {
      const actual = Object.prototype.hasOwnProperty.call(fields, t.field) ? fields[t.field] : '';
      return t.operator === '=' ? actual === t.value : actual !== t.value;
    });
  }

  empty(): boolean {
    return this.terms.length === 0;
  }

  toString(): string {
    return this.terms.map((t) => `${t.field}${t.operator}${escapeFieldValue(t.value)}`).join(',');
  }

  requirements(): readonly FieldRequirement[] {
    return this.terms;
  }

  requiresExactMatch(field: string): string | undefined {
    return this.terms.find((t) => t.field === field && t.operator === '=')?.value;
  }
}

/** A selector that matches every object. */
export function everythingFieldSelector(): FieldSelector {
  return new TermsSelector([]);
}

/** Escapes `\`, `,` and `=` so a literal can be used as a selector value. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

class FieldParseError extends Error {}

function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new FieldParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // Upstream prints the offending rune with %v, i.e. as its code point number.
    else if (c === ',' || c === '=') throw new FieldParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new FieldParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

// Backslash-escaped commas are data, not separators; the backslash is kept.
function splitTerms(s: string): string[] {
  if (s.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

// The first operator occurrence splits the term; keys cannot be escaped.
function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Parses a field selector (`metadata.name=foo,status.phase!=Running`). An empty string
 * selects everything. Throws a 400 BadRequest StatusError with upstream's message.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort(compareBytes);
  const terms: FieldRequirement[] = [];
  try {
    for (const part of parts) {
      if (part === '') continue;
      const split = splitTerm(part);
      if (!split) throw new FieldParseError(`invalid selector: '${selector}'; can't understand '${part}'`);
      const value = unescapeValue(split.rhs);
      terms.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value });
    }
  } catch (e) {
    if (e instanceof FieldParseError) throw errors.badRequest(e.message);
    throw e;
  }
  return new TermsSelector(terms);
}

/**
 * A kind's field label conversion (upstream's scheme.AddFieldLabelConversionFunc): the
 * selector labels it accepts, each naming the selectable field it is matched against
 * (legacy and renamed labels map elsewhere: `spec.host` -> `spec.nodeName`), and how it
 * words any other label. Accepting a label is separate from exposing a value for it: a
 * label accepted but never exposed (pods' `status.podIPs`) reads as the empty string.
 */
export interface FieldLabelConversion {
  readonly labels: Readonly<Record<string, string>>;
  reject(label: string): string;
}

function labelMap(labels: readonly string[], renamed: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of labels) out[l] = l;
  return { ...out, ...renamed };
}

/**
 * Kinds without a registered conversion (upstream DefaultMetaV1FieldSelectorConversion):
 * metadata.name and metadata.namespace, even for cluster-scoped kinds (whose namespace
 * then reads as empty).
 */
export const defaultFieldLabels: FieldLabelConversion = {
  labels: labelMap(['metadata.name', 'metadata.namespace'], {}),
  reject: (label) => `${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

/**
 * A registered conversion accepting exactly `labels` (plus the `renamed` ones), worded
 * `field label not supported: <label>` unless the kind words it otherwise.
 */
export function fieldLabels(labels: readonly string[], opts: {
  renamed?: Record<string, string>;
  reject?: (label: string) => string;
} = {}): FieldLabelConversion {
  return {
    labels: labelMap(labels, opts.renamed ?? {}),
    reject: opts.reject ?? ((label) => `field label not supported: ${label}`),
  };
}

/**
 * Rejects labels the kind does not accept with upstream's 400 BadRequest, and returns the
 * selector over the fields they name (the selector to match objects with).
 */
export function validateFieldSelector(sel: FieldSelector, conv: FieldLabelConversion = defaultFieldLabels): FieldSelector {
  let renamed = false;
  const terms = sel.requirements().map((t) => {
    if (!Object.prototype.hasOwnProperty.call(conv.labels, t.field)) throw errors.badRequest(conv.reject(t.field));
    const field = conv.labels[t.field];
    if (field === t.field) return t;
    renamed = true;
    return { ...t, field };
  });
  return renamed ? new TermsSelector(terms) : sel;
}

/**
 * The fields every object can be selected on (upstream ObjectMetaFieldsSet).
 * Cluster-scoped kinds expose only `metadata.name`; a `metadata.namespace` term then
 * compares against the empty string, as upstream.
 */
export function objectMetaFields(obj: { metadata?: { name?: string; namespace?: string } | null }, namespaced: boolean): Record<string, string> {
  const meta = obj.metadata ?? {};
  const fields: Record<string, string> = { 'metadata.name': meta.name ?? '' };
  if (namespaced) fields['metadata.namespace'] = meta.namespace ?? '';
  return fields;
}
