// The subset of Kubernetes JSONPath that CRD printer columns use (upstream's
// client-go/util/jsonpath over `{<path>}`): fields (`.a`, `['a.b']`), indices (`[0]`,
// `[-1]`), slices (`[1:3]`), wildcards (`[*]`, `.*`), recursive descent (`..a`) and
// filters comparing a field with a literal (`[?(@.type=="Ready")]`). A path either
// parses into steps or is refused once, when the CRD is read.
import { isPlainObject } from '../../runtime/object.js';

type Literal = string | number | boolean | null;
type Step =
  | { k: 'field'; name: string }
  | { k: 'index'; i: number }
  | { k: 'slice'; start?: number; end?: number }
  | { k: 'all' }
  | { k: 'recurse'; name?: string }
  | { k: 'filter'; path: string[]; op?: '==' | '!=' | '<' | '>' | '<=' | '>='; value?: Literal };

export class JSONPathError extends Error {}

export interface JSONPath {
  /** Every value the path reaches, in document order. */
  find(root: unknown): unknown[];
}

export function parseJSONPath(expr: string): JSONPath {
  let src = expr.trim();
  if (src.startsWith('{') && src.endsWith('}')) src = src.slice(1, -1).trim();
  if (src.startsWith('$')) src = src.slice(1);
  const steps = parseSteps(src);
  return { find: (root) => steps.reduce<unknown[]>((values, step) => values.flatMap((v) => apply(step, v)), [root]) };
}

function parseSteps(src: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  const ident = (): string => {
    const m = /^[A-Za-z0-9_\-/$]+/.exec(src.slice(i));
    if (!m) throw new JSONPathError(`unrecognized identifier at ${i} in ${JSON.stringify(src)}`);
    i += m[0].length;
    return m[0];
  };
  while (i < src.length) {
    if (src.startsWith('..', i)) {
      i += 2;
      steps.push({ k: 'recurse' });
      if (src[i] === '*') { i++; continue; }
      if (src[i] !== '[') steps.push({ k: 'field', name: ident() });
    } else if (src[i] === '.') {
      i++;
      if (src[i] === '*') { i++; steps.push({ k: 'all' }); } else if (i < src.length) steps.push({ k: 'field', name: ident() });
    } else if (src[i] === '[') {
      const close = matchingBracket(src, i);
      steps.push(bracket(src.slice(i + 1, close).trim()));
      i = close + 1;
    } else if (/\s/.test(src[i]!)) {
      i++;
    } else {
      throw new JSONPathError(`unrecognized character ${JSON.stringify(src[i])} in ${JSON.stringify(src)}`);
    }
  }
  return steps;
}

function matchingBracket(src: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let j = open; j < src.length; j++) {
    const c = src[j]!;
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return j;
  }
  throw new JSONPathError(`unterminated array in ${JSON.stringify(src)}`);
}

function bracket(body: string): Step {
  if (body === '*') return { k: 'all' };
  const quoted = /^(['"])(.*)\1$/.exec(body);
  if (quoted) return { k: 'field', name: quoted[2]! };
  if (/^-?\d+$/.test(body)) return { k: 'index', i: Number(body) };
  const slice = /^(-?\d*):(-?\d*)(?::\d*)?$/.exec(body);
  if (slice) return { k: 'slice', start: slice[1] ? Number(slice[1]) : undefined, end: slice[2] ? Number(slice[2]) : undefined };
  const filter = /^\?\((.*)\)$/.exec(body);
  if (filter) return parseFilter(filter[1]!.trim());
  throw new JSONPathError(`unrecognized array index ${JSON.stringify(body)}`);
}

function parseFilter(expr: string): Step {
  const m = /^@((?:\.[A-Za-z0-9_\-/]+)*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+))?$/.exec(expr);
  if (!m) throw new JSONPathError(`unrecognized filter ${JSON.stringify(expr)}`);
  const path = m[1] ? m[1].slice(1).split('.') : [];
  if (!m[2]) return { k: 'filter', path };
  return { k: 'filter', path, op: m[2] as NonNullable<Extract<Step, { k: 'filter' }>['op']>, value: literal(m[3]!.trim()) };
}

function literal(text: string): Literal {
  const q = /^(['"])(.*)\1$/.exec(text);
  if (q) return q[2]!;
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null') return null;
  const n = Number(text);
  if (text !== '' && !Number.isNaN(n)) return n;
  throw new JSONPathError(`unrecognized literal ${JSON.stringify(text)}`);
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isPlainObject(v)) return Object.values(v);
  return [];
}

function descendants(v: unknown): unknown[] {
  return [v, ...children(v).flatMap(descendants)];
}

function apply(step: Step, v: unknown): unknown[] {
  switch (step.k) {
    case 'field':
      return isPlainObject(v) && Object.prototype.hasOwnProperty.call(v, step.name) ? [v[step.name]] : [];
    case 'index': {
      if (!Array.isArray(v)) return [];
      const i = step.i < 0 ? v.length + step.i : step.i;
      return i >= 0 && i < v.length ? [v[i]] : [];
    }
    case 'slice':
      return Array.isArray(v) ? v.slice(step.start, step.end) : [];
    case 'all':
      return children(v);
    case 'recurse':
      return descendants(v);
    case 'filter':
      return children(v).filter((item) => matches(step, item));
  }
}

function matches(step: Extract<Step, { k: 'filter' }>, item: unknown): boolean {
  let cur: unknown = item;
  for (const p of step.path) {
    if (!isPlainObject(cur) || !(p in cur)) return false;
    cur = cur[p];
  }
  if (!step.op) return true;
  const want = step.value;
  switch (step.op) {
    case '==': return cur === want;
    case '!=': return cur !== want;
    default: {
      if (typeof cur !== 'number' || typeof want !== 'number') return false;
      if (step.op === '<') return cur < want;
      if (step.op === '>') return cur > want;
      if (step.op === '<=') return cur <= want;
      return cur >= want;
    }
  }
}
