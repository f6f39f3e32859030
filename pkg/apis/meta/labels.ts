// Label selectors: upstream's string syntax (apimachinery labels.Parse) and the
// metav1.LabelSelector object form (LabelSelectorAsSelector). Error texts are
// upstream's, because clients and tests match on them.

import { errors } from '../../runtime/errors.js';
import { goQuote, goStringSlice } from '../../runtime/gofmt.js';
import { isQualifiedName, isValidLabelValue } from '../validation/names.js';

// Re-exported for callers that parse selectors and validate keys together.
export { isQualifiedName, isValidLabelValue };

export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** Values as given (deduplicated and sorted when parsed from a string). */
  readonly values: readonly string[];
}

export interface LabelSelector {
  /** True when every requirement holds for these labels (an object without labels has none). */
  matches(labels: Record<string, string> | undefined | null): boolean;
  /** True when the selector does not restrict anything. */
  empty(): boolean;
  /** Canonical form: requirements sorted by key, values sorted. */
  toString(): string;
  requirements(): readonly LabelRequirement[];
  /** The single value a selector demands for `label`, if it demands exactly one. */
  requiresExactMatch(label: string): string | undefined;
}

/** metav1.LabelSelector. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] | null }> | null;
}

// Field errors rendered the way upstream's field.Error.Error() renders them.

function invalid(path: string, value: string, detail: string): string {
  return `${path}: Invalid value: ${value}: ${detail}`;
}

function aggregate(msgs: string[]): string | undefined {
  const unique = [...new Set(msgs)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

const int64Re = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

function parseInt64(s: string): bigint | undefined {
  if (!int64Re.test(s)) return undefined;
  const n = BigInt(s);
  return n < int64Min || n > int64Max ? undefined : n;
}

const validOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

/** Upstream NewRequirement's checks; returns the aggregated error text or undefined. */
function requirementError(key: string, op: LabelOperator, vals: readonly string[] | null): string | undefined {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length > 0) errs.push(invalid('key', goQuote(key), keyErrs.join('; ')));
  const n = vals?.length ?? 0;
  switch (op) {
    case 'in': case 'notin':
      if (n === 0) errs.push(invalid('values', goStringSlice(vals), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=': case '==': case '!=':
      if (n !== 1) errs.push(invalid('values', goStringSlice(vals), 'exact-match compatibility requires one single value'));
      break;
    case 'exists': case '!':
      if (n !== 0) errs.push(invalid('values', goStringSlice(vals), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt': case 'lt':
      if (n !== 1) errs.push(invalid('values', goStringSlice(vals), "for 'Gt', 'Lt' operators, exactly one value is required"));
      (vals ?? []).forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(invalid(`values[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(`operator: Unsupported value: ${goQuote(op)}: supported values: ${validOperators.map(goQuote).join(', ')}`);
  }
  (vals ?? []).forEach((v, i) => {
    const valErrs = isValidLabelValue(v);
    if (valErrs.length > 0) errs.push(invalid(`values[${i}][${key}]`, goQuote(v), valErrs.join('; ')));
  });
  return aggregate(errs);
}

// ---------------------------------------------------------------------------
// Requirements and selectors

function requirementMatches(r: LabelRequirement, labels: Record<string, string> | undefined | null): boolean {
  const has = labels != null && Object.prototype.hasOwnProperty.call(labels, r.key);
  const val = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in': case '=': case '==':
      return has && r.values.includes(val as string);
    case 'notin': case '!=':
      return !has || !r.values.includes(val as string);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const actual = parseInt64(val as string);
      const wanted = parseInt64(r.values[0]);
      if (actual === undefined || wanted === undefined) return false;
      return r.operator === 'gt' ? actual > wanted : actual < wanted;
    }
  }
}

function requirementString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort(compareBytes).join(',');
  switch (r.operator) {
    case 'in': return `${r.key} in (${vals})`;
    case 'notin': return `${r.key} notin (${vals})`;
    case 'gt': return `${r.key}>${vals}`;
    case 'lt': return `${r.key}<${vals}`;
    default: return `${r.key}${r.operator}${vals}`;
  }
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

class RequirementsSelector implements LabelSelector {
  private readonly reqs: readonly LabelRequirement[];

  constructor(reqs: LabelRequirement[]) {
    // Sorted by key so String() and comparisons are deterministic, as upstream.
    this.reqs = [...reqs].sort((a, b) => compareBytes(a.key, b.key));
  }

  matches(labels: Record<string, string> | undefined | null): boolean {
    return this.reqs.every((r) => requirementMatches(r, labels));
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  toString(): string {
    return this.reqs.map(requirementString).join(',');
  }

  requirements(): readonly LabelRequirement[] {
    return this.reqs;
  }

  requiresExactMatch(label: string): string | undefined {
    const r = this.reqs.find((x) => x.key === label);
    if (!r) return undefined;
    if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
    return undefined;
  }
}

class NothingSelector implements LabelSelector {
  matches(): boolean { return false; }
  empty(): boolean { return false; }
  toString(): string { return ''; }
  requirements(): readonly LabelRequirement[] { return []; }
  requiresExactMatch(): string | undefined { return undefined; }
}

/** A selector that matches every object. */
export function everythingLabelSelector(): LabelSelector {
  return new RequirementsSelector([]);
}

/** A selector that matches no object (what a nil metav1.LabelSelector means). */
export function nothingLabelSelector(): LabelSelector {
  return new NothingSelector();
}

/** Selector requiring exactly these labels (upstream SelectorFromSet); no validation. */
export function labelSelectorFromSet(set: Record<string, string> | undefined | null): LabelSelector {
  return new RequirementsSelector(Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));
}

// ---------------------------------------------------------------------------
// The string syntax: a lexer and a recursive-descent parser mirroring upstream's,
// so that the same inputs fail with the same messages.

type Tok =
  | 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

interface Scanned { tok: Tok; lit: string }

const literalTokens: Record<string, Tok> = {
  ')': ')', ',': ',', '!': '!', '==': '==', '=': '=', '>': '>', in: 'in', '<': '<', '!=': '!=', notin: 'notin', '(': '(',
};

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return ch === '=' || ch === '!' || ch === '(' || ch === ')' || ch === ',' || ch === '>' || ch === '<';
}

function lex(s: string): Scanned[] {
  let pos = 0;
  // Upstream reads bytes and treats a NUL as the end of input; so do we.
  const read = (): string => (pos < s.length ? s[pos++] : '\0');
  const out: Scanned[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    if (ch === '\0') {
      out.push({ tok: 'eos', lit: '' });
      return out;
    }
    if (isSpecialSymbol(ch)) {
      pos--;
      let buf = '';
      let last: Scanned | undefined;
      for (;;) {
        const c = read();
        if (c === '\0') break;
        if (!isSpecialSymbol(c)) { pos--; break; }
        buf += c;
        const t = Object.prototype.hasOwnProperty.call(literalTokens, buf) ? literalTokens[buf] : undefined;
        if (t) last = { tok: t, lit: buf };
        else if (last) { pos--; break; }
      }
      out.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
      continue;
    }
    pos--;
    let buf = '';
    for (;;) {
      const c = read();
      if (c === '\0') break;
      if (isSpecialSymbol(c) || isWhitespace(c)) { pos--; break; }
      buf += c;
    }
    const t = buf === 'in' || buf === 'notin' ? literalTokens[buf] : 'id';
    out.push({ tok: t, lit: buf });
  }
}

class LabelParseError extends Error {}

const binaryOperatorList = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private position = 0;

  constructor(private readonly items: Scanned[]) {}

  // In value context the keywords `in`/`notin` are ordinary identifiers.
  private view(i: number, values: boolean): Scanned {
    const it = this.items[Math.min(i, this.items.length - 1)];
    if (values && (it.tok === 'in' || it.tok === 'notin')) return { tok: 'id', lit: it.lit };
    return it;
  }

  private lookahead(values = true): Scanned {
    return this.view(this.position, values);
  }

  private consume(values = true): Scanned {
    return this.view(this.position++, values);
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      if (tok === 'id' || tok === '!') {
        try {
          reqs.push(this.parseRequirement());
        } catch (e) {
          if (e instanceof LabelParseError) throw new LabelParseError(`unable to parse requirement: ${e.message}`);
          throw e;
        }
        const next = this.consume();
        if (next.tok === 'eos') return reqs;
        if (next.tok === ',') {
          const after = this.lookahead();
          if (after.tok !== 'id' && after.tok !== '!') throw new LabelParseError(`found '${after.lit}', expected: identifier after ','`);
          continue;
        }
        throw new LabelParseError(`found '${next.lit}', expected: ',' or 'end of string'`);
      }
      if (tok === 'eos') return reqs;
      throw new LabelParseError(`found '${lit}', expected: !, identifier, or 'end of string'`);
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator: inferred } = this.parseKeyAndInferOperator();
    let operator: LabelOperator;
    let values: string[] = [];
    if (inferred === 'exists' || inferred === '!') {
      operator = inferred;
    } else {
      operator = this.parseOperator();
      values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
      values = [...new Set(values)].sort(compareBytes);
    }
    const err = requirementError(key, operator, values);
    if (err) throw new LabelParseError(err);
    return { key, operator, values };
  }

  private parseKeyAndInferOperator(): { key: string; operator: LabelOperator | '' } {
    let operator: LabelOperator | '' = '';
    let t = this.consume();
    if (t.tok === '!') {
      operator = '!';
      t = this.consume();
    }
    if (t.tok !== 'id') throw new LabelParseError(`found '${t.lit}', expected: identifier`);
    const keyErrs = isQualifiedName(t.lit);
    // The parser validates with a nil field path, which upstream renders as "<nil>".
    if (keyErrs.length > 0) throw new LabelParseError(invalid('<nil>', goQuote(t.lit), keyErrs.join('; ')));
    const next = this.lookahead().tok;
    if ((next === 'eos' || next === ',') && operator !== '!') operator = 'exists';
    return { key: t.lit, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case 'in': return 'in';
      case '=': return '=';
      case '==': return '==';
      case '>': return 'gt';
      case '<': return 'lt';
      case 'notin': return 'notin';
      case '!=': return '!=';
      default: throw new LabelParseError(`found '${lit}', expected: ${binaryOperatorList}`);
    }
  }

  private parseValues(): string[] {
    const open = this.consume();
    if (open.tok !== '(') throw new LabelParseError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead();
    if (tok === 'id' || tok === ',') {
      const vals = this.parseIdentifiersList();
      // Upstream reports the token seen before the list, not the offending one.
      if (this.consume().tok !== ')') throw new LabelParseError(`found '${lit}', expected: ')'`);
      return vals;
    }
    if (tok === ')') {
      this.consume();
      return [''];
    }
    throw new LabelParseError(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): string[] {
    const vals = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume();
      if (tok === 'id') {
        vals.add(lit);
        const next = this.lookahead();
        if (next.tok === ',') continue;
        if (next.tok === ')') return [...vals];
        throw new LabelParseError(`found '${next.lit}', expected: ',' or ')'`);
      }
      if (tok === ',') {
        if (vals.size === 0) vals.add('');
        const next = this.lookahead().tok;
        if (next === ')') {
          vals.add('');
          return [...vals];
        }
        if (next === ',') vals.add('');
        continue;
      }
      throw new LabelParseError(`found '${lit}', expected: ',', or identifier`);
    }
  }

  private parseExactValue(): string[] {
    const next = this.lookahead().tok;
    if (next === 'eos' || next === ',') return [''];
    const { tok, lit } = this.consume();
    if (tok === 'id') return [lit];
    throw new LabelParseError(`found '${lit}', expected: identifier`);
  }
}

/**
 * Parses a label selector string (`a=b,c in (d,e),!f`). An empty string selects
 * everything. Throws a 400 BadRequest StatusError with upstream's message.
 */
export function parseLabelSelector(s: string): LabelSelector {
  try {
    return new RequirementsSelector(new Parser(lex(s)).parse());
  } catch (e) {
    if (e instanceof LabelParseError) throw errors.badRequest(e.message);
    throw e;
  }
}

const objectOperators: Record<string, LabelOperator> = {
  In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!',
};

/**
 * Converts a metav1.LabelSelector (upstream LabelSelectorAsSelector): null/undefined
 * selects nothing, an empty selector selects everything. Invalid content throws a
 * 400 BadRequest StatusError.
 */
export function labelSelectorFromObject(sel: LabelSelectorObject | null | undefined): LabelSelector {
  if (sel == null) return nothingLabelSelector();
  const matchLabels = sel.matchLabels ?? {};
  const exprs = sel.matchExpressions ?? [];
  const reqs: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(matchLabels)) {
    const err = requirementError(key, '=', [value]);
    if (err) throw errors.badRequest(err);
    reqs.push({ key, operator: '=', values: [value] });
  }
  for (const expr of exprs) {
    const op = Object.prototype.hasOwnProperty.call(objectOperators, expr.operator) ? objectOperators[expr.operator] : undefined;
    if (!op) throw errors.badRequest(`${goQuote(expr.operator)} is not a valid label selector operator`);
    // Upstream copies with append([]string(nil), ...), so an empty list reads as nil.
    const values = expr.values && expr.values.length > 0 ? [...expr.values] : null;
    const err = requirementError(expr.key, op, values);
    if (err) throw errors.badRequest(err);
    reqs.push({ key: expr.key, operator: op, values: values ?? [] });
  }
  return new RequirementsSelector(reqs);
}
