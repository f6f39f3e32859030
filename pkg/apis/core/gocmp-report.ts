// go-cmp's default reporter (report_compare.go, report_reflect.go) over our comparison
// tree: differing leaves as "-"/"+" records, two equal records of context around each
// change and "... // N identical fields" for the rest, Go type names on differing
// composites, and verbosity limits on how much of a value is printed.
import { goQuote } from '../../runtime/gofmt.js';
import type { GoType, GoValue } from './gotype.js';
import { isNamed, typeString } from './gotype.js';
import { isZero } from './gocmp-value.js';
import type { Side, ValueNode } from './gocmp-compare.js';
import {
  appendEllipsis, numDiff, render, textEllipsis, textEqual, textLen, TextLine, TextList, textNil, TextWrap,
  type DiffMode, type DiffStats, type TextNode,
} from './gocmp-text.js';

type TypeMode = 'emit' | 'elide' | 'auto';

interface Opts {
  diff: DiffMode;
  type: TypeMode;
  verbosity: number;
  limit: boolean;
}

const numContextRecords = 2;
const maxVerbosityPreset = 6;

const withDiff = (o: Opts, diff: DiffMode): Opts => ({ ...o, diff });
const withType = (o: Opts, type: TypeMode): Opts => ({ ...o, type });
const withVerbosity = (o: Opts, verbosity: number): Opts => ({ ...o, verbosity, limit: true });
const level = (o: Opts): number => Math.min(Math.max(o.verbosity, 0), 16);
const presetOf = (o: Opts, i: number): Opts => ({ ...o, verbosity: level(o) + 2 * i });
/** How many records a level prints: 0, 4, 8, 16... for values, 2, 4, 8... for differences. */
const valueLimit = (o: Opts): number => ((1 << level(o)) >> 1) << 2;

/** cmp.Diff(x, y) for the tree compare() built: "" when equal. */
export function reportDiff(root: ValueNode): string {
  if (root.numDiff === 0) return '';
  return render(formatDiff({ diff: '', type: 'emit', verbosity: 0, limit: false }, root));
}

function formatDiff(opts: Opts, v: ValueNode): TextNode {
  opts = opts.diff === ' ' ? withVerbosity(opts, 1) : level(opts) < 3 ? withVerbosity(opts, 3) : opts;
  // Specialized slice and string diffing (report_slices.go) is not reproduced.

  if (v.maxDepth === 0) {
    switch (opts.diff) {
      case '': case ' ': {
        if (v.numDiff === 0) {
          const outx = formatValue(opts, v.type, v.x, v.parentKind);
          const outy = formatValue(opts, v.type, v.y, v.parentKind);
          return outx && outy && textLen(outx) < textLen(outy) ? outx : (outy ?? outx ?? textNil);
        }
        let outx = formatValue(withType(opts, 'elide'), v.type, v.x, v.parentKind);
        let outy = formatValue(withType(opts, 'elide'), v.type, v.y, v.parentKind);
        for (let i = 0; i <= maxVerbosityPreset && outx && outy && textEqual(outx, outy); i++) {
          const o2 = withType(presetOf(opts, i), 'elide');
          outx = formatValue(o2, v.type, v.x, v.parentKind);
          outy = formatValue(o2, v.type, v.y, v.parentKind);
        }
        const list = new TextList();
        if (outx) list.records.push({ diff: '-', value: outx });
        if (outy) list.records.push({ diff: '+', value: outy });
        return formatType(withType(opts, 'emit'), v.type, list);
      }
      case '-': return formatValue(opts, v.type, v.x, v.parentKind) ?? textNil;
      default: return formatValue(opts, v.type, v.y, v.parentKind) ?? textNil;
    }
  }
  if (v.type.kind === 'ptr') return new TextWrap('&', formatDiff(opts, v.value as ValueNode));
  return formatType(opts, v.type, formatDiffList(opts, v));
}

function formatDiffList(opts: Opts, v: ValueNode): TextNode {
  const k = v.type.kind;
  const name = k === 'struct' ? 'field' : k === 'map' ? 'entry' : 'element';
  opts = withType(opts, k === 'struct' ? 'auto' : 'elide');
  const formatKey = (key: string | undefined): string | undefined => (k === 'map' ? goQuote(key ?? '') : key);

  let maxLen = -1;
  if (opts.limit) {
    maxLen = opts.diff === ' ' ? valueLimit(opts) : (1 << level(opts)) << 1;
    opts = { ...opts, verbosity: opts.verbosity - 1 };
  }

  const list = new TextList();
  if (opts.diff !== '') {
    let deferredEllipsis = false;
    for (const r of v.records) {
      if (list.records.length === maxLen) {
        deferredEllipsis = true;
        break;
      }
      if (k === 'struct') {
        const zero = opts.diff === ' ' ? sideZero(r.node.type, r.node.x) || sideZero(r.node.type, r.node.y)
          : sideZero(r.node.type, opts.diff === '-' ? r.node.x : r.node.y);
        if (zero) continue;
      }
      list.records.push({ key: formatKey(r.key), value: formatDiff(opts, r.node) });
    }
    if (deferredEllipsis) appendEllipsis(list);
    return new TextWrap('{', list, '}');
  }

  let recs = v.records;
  let numDiffs = 0;
  let maxGroup: DiffStats = { name };
  const groups = coalesce(name, recs);
  groups.forEach((ds, i) => {
    if (maxLen >= 0 && numDiffs >= maxLen) {
      maxGroup = addStatsTo(maxGroup, ds);
      return;
    }
    if (numDiff(ds) === 0) {
      const numEqual = ds.identical ?? 0;
      let numLo = 0;
      let numHi = 0;
      while (numLo < numContextRecords && numLo + numHi < numEqual && i !== 0) numLo++;
      while (numHi < numContextRecords && numLo + numHi < numEqual && i !== groups.length - 1) numHi++;
      if (numEqual - (numLo + numHi) === 1) numHi++; // one elided record would say no more than itself
      for (const r of recs.slice(0, numLo)) list.records.push({ key: formatKey(r.key), value: formatDiff(withDiff(opts, ' '), r.node) });
      if (numEqual > numLo + numHi) appendEllipsis(list, { name, identical: numEqual - numLo - numHi });
      for (const r of recs.slice(numEqual - numHi, numEqual)) list.records.push({ key: formatKey(r.key), value: formatDiff(withDiff(opts, ' '), r.node) });
      recs = recs.slice(numEqual);
      return;
    }
    for (const r of recs.slice(0, numDiff(ds))) {
      const key = formatKey(r.key);
      if (r.node.numChildren === r.node.maxDepth) {
        let outx = formatDiff(withDiff(opts, '-'), r.node);
        let outy = formatDiff(withDiff(opts, '+'), r.node);
        for (let p = 0; p <= maxVerbosityPreset && r.node.x !== undefined && r.node.y !== undefined && textEqual(outx, outy); p++) {
          const o2 = presetOf(opts, p);
          outx = formatDiff(withDiff(o2, '-'), r.node);
          outy = formatDiff(withDiff(o2, '+'), r.node);
        }
        if (r.node.x !== undefined) list.records.push({ diff: '-', key, value: outx });
        if (r.node.y !== undefined) list.records.push({ diff: '+', key, value: outy });
      } else {
        list.records.push({ key, value: formatDiff(opts, r.node) });
      }
    }
    recs = recs.slice(numDiff(ds));
    numDiffs += numDiff(ds);
  });
  if (numDiff(maxGroup) + (maxGroup.identical ?? 0) > 0) appendEllipsis(list, maxGroup);
  return new TextWrap('{', list, '}');
}

function addStatsTo(a: DiffStats, b: DiffStats): DiffStats {
  return {
    name: a.name,
    identical: (a.identical ?? 0) + (b.identical ?? 0) || undefined,
    removed: (a.removed ?? 0) + (b.removed ?? 0) || undefined,
    inserted: (a.inserted ?? 0) + (b.inserted ?? 0) || undefined,
    modified: (a.modified ?? 0) + (b.modified ?? 0) || undefined,
  };
}

/** Runs of equal records and of differing ones (removed / inserted / modified). */
function coalesce(name: string, recs: ValueNode['records']): DiffStats[] {
  const groups: DiffStats[] = [];
  let prev = 0;
  const last = (c: number): DiffStats => {
    if (prev !== c) {
      groups.push({ name });
      prev = c;
    }
    return groups[groups.length - 1];
  };
  for (const { node: n } of recs) {
    if (n.numDiff === 0) { const g = last(1); g.identical = (g.identical ?? 0) + 1; }
    else if (n.y === undefined) { const g = last(2); g.removed = (g.removed ?? 0) + 1; }
    else if (n.x === undefined) { const g = last(2); g.inserted = (g.inserted ?? 0) + 1; }
    else { const g = last(2); g.modified = (g.modified ?? 0) + 1; }
  }
  return groups;
}

const sideZero = (t: GoType, v: Side): boolean => v !== undefined && isZero(t, v);

/** FormatType: the Go type around a composite value, when the type mode asks for it. */
function formatType(opts: Opts, t: GoType, s: TextNode): TextNode {
  if (opts.type === 'elide') return s;
  if (opts.type === 'auto') {
    if (t.kind !== 'struct' && t.kind !== 'slice' && t.kind !== 'map') return s;
    if (textEqual(s, textNil) || opts.diff === ' ') return s;
  }
  let name = typeString(t);
  if (t.kind === 'ptr' && !isNamed(t)) name = `(${name})`;
  return new TextWrap(name, wrapParens(s));
}

function wrapParens(s: TextNode): TextNode {
  if (s instanceof TextWrap) {
    if ((s.prefix.startsWith('(') && s.suffix.endsWith(')')) || (s.prefix.startsWith('{') && s.suffix.endsWith('}'))) return s;
  }
  return new TextWrap('(', s, ')');
}

/** FormatValue: a whole Go value, within the verbosity limits. undefined: no value. */
function formatValue(opts: Opts, t: GoType, v: Side, parentKind?: GoType['kind']): TextNode | undefined {
  if (v === undefined) return undefined;
  let skipType = false;
  const out = ((): TextNode => {
    switch (t.kind) {
      case 'bool': case 'int': case 'float': return new TextLine(String(v));
      case 'string': return formatString(opts, v as string);
      case 'struct': {
        const list = new TextList();
        let maxLen = t.fields.length;
        let o = opts;
        if (o.limit) {
          maxLen = valueLimit(o);
          o = { ...o, verbosity: o.verbosity - 1 };
        }
        for (const f of t.fields) {
          const fv = (v as Map<string, GoValue>).get(f.go) ?? null;
          if (isZero(f.type, fv)) continue;
          if (list.records.length === maxLen) {
            appendEllipsis(list);
            break;
          }
          list.records.push({ key: f.go, value: formatValue(withType(o, 'auto'), f.type, fv, 'struct') as TextNode });
        }
        return new TextWrap('{', list, '}');
      }
      case 'slice': {
        if (v === null) return textNil;
        const items = v as GoValue[];
        let maxLen = items.length;
        let o = opts;
        if (o.limit) {
          maxLen = valueLimit(o);
          o = { ...o, verbosity: o.verbosity - 1 };
        }
        const list = new TextList();
        for (const item of items) {
          if (list.records.length === maxLen) {
            appendEllipsis(list);
            break;
          }
          list.records.push({ value: formatValue(withType(o, 'elide'), t.elem, item, 'slice') as TextNode });
        }
        return new TextWrap('{', list, '}');
      }
      case 'map': {
        if (v === null) return textNil;
        const entries = [...(v as Map<string, GoValue>).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        let maxLen = entries.length;
        let o = opts;
        if (o.limit) {
          maxLen = valueLimit(o);
          o = { ...o, verbosity: o.verbosity - 1 };
        }
        const list = new TextList();
        for (const [key, val] of entries) {
          if (list.records.length === maxLen) {
            appendEllipsis(list);
            break;
          }
          list.records.push({ key: goQuote(key), value: formatValue(withType(o, 'elide'), t.elem, val, 'map') as TextNode });
        }
        return new TextWrap('{', list, '}');
      }
      case 'ptr': {
        if (v === null) return textNil;
        skipType = true; // the pointed-to value prints the type
        return new TextWrap('&', formatValue(opts, t.elem, v, 'ptr') as TextNode);
      }
    }
  })();
  void parentKind;
  return skipType ? out : formatType(opts, t, out);
}

/** A string value: quoted, cut at the verbosity limit; long multi-line ones in """ blocks. */
function formatString(opts: Opts, s: string): TextNode {
  let maxLen = Buffer.byteLength(s);
  let maxLines = s.split('\n').length;
  if (opts.limit) {
    maxLen = (1 << level(opts)) << 5;
    maxLines = (1 << level(opts)) << 2;
  }
  const lines = s.replace(/\n$/, '').split('\n');
  let triple = lines.length >= 4 && (opts.diff === '-' || opts.diff === '+');
  for (let i = 0; i < lines.length && triple; i++) {
    lines[i] = lines[i].replace(/\r$/, '').replace(/^\r/, '');
    const line = lines[i];
    triple = !line.startsWith('"""') && !line.startsWith('...') && /^[\P{C}\t]*$/u.test(line) && Buffer.byteLength(line) <= maxLen;
  }
  if (triple) {
    const list = new TextList([{ diff: opts.diff, value: new TextLine('"""'), elideComma: true }]);
    for (let i = 0; i < lines.length; i++) {
      const numElided = lines.length - i;
      if (i === maxLines - 1 && numElided > 1) {
        list.records.push({ diff: opts.diff, value: textEllipsis, elideComma: true, comment: `${numElided} elided lines` });
        break;
      }
      list.records.push({ diff: opts.diff, value: new TextLine(lines[i]), elideComma: true });
    }
    list.records.push({ diff: opts.diff, value: new TextLine('"""'), elideComma: true });
    return new TextWrap('(', list, ')');
  }
  const bytes = Buffer.from(s);
  if (bytes.length > maxLen + 3) return new TextLine(`${goQuoteOrRaw(bytes.subarray(0, maxLen).toString())}...`);
  return new TextLine(goQuoteOrRaw(s));
}

/** formatString: Go's strconv.Quote, or a `raw` literal when quoting would escape something. */
function goQuoteOrRaw(s: string): string {
  const q = goQuote(s);
  if (q.length === s.length + 2) return q;
  if (!/[`\n]/.test(s) && /^[\P{C}\t]*$/u.test(s)) return `\`${s}\``;
  return q;
}

