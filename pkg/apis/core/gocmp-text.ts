// go-cmp's text tree (report_text.go): lines, wrapped nodes and record lists that print
// on one line when they can and otherwise one record a line, tab-indented, with "-"/"+"
// diff marks, keys and trailing comments aligned in columns.

/** '' unknown, ' ' identical, '-' removed, '+' inserted (combined as Go ORs the bytes). */
export type DiffMode = '' | ' ' | '-' | '+';

export const maxColumnLength = 80;

export type TextNode = TextLine | TextWrap | TextList;
export class TextLine { constructor(readonly s: string) {} }
export class TextWrap { constructor(readonly prefix: string, public value: TextNode, readonly suffix = '') {} }
export class TextList { constructor(readonly records: TextRecord[] = []) {} }
export interface TextRecord { diff?: DiffMode; key?: string; value: TextNode; elideComma?: boolean; comment?: string }

export const textNil = new TextLine('nil');
export const textEllipsis = new TextLine('...');

function orMode(a: DiffMode, b: DiffMode | undefined): DiffMode {
  if (!b) return a;
  if (!a) return b;
  return String.fromCharCode(a.charCodeAt(0) | b.charCodeAt(0)) as DiffMode;
}

const runes = (s: string): number => [...s].length;

export function textLen(n: TextNode): number {
  if (n instanceof TextLine) return Buffer.byteLength(n.s);
  if (n instanceof TextWrap) return n.prefix.length + textLen(n.value) + n.suffix.length;
  return n.records.reduce((sum, r, i) => sum + (r.key ? r.key.length + 2 : 0) + textLen(r.value) + (i < n.records.length - 1 ? 2 : 0), 0);
}

export function textEqual(a: TextNode, b: TextNode): boolean {
  if (a instanceof TextLine) return b instanceof TextLine && a.s === b.s;
  if (a instanceof TextWrap) return b instanceof TextWrap && a.prefix === b.prefix && a.suffix === b.suffix && textEqual(a.value, b.value);
  if (!(b instanceof TextList) || a.records.length !== b.records.length) return false;
  return a.records.every((r, i) => {
    const s = b.records[i];
    return (r.diff ?? '') === (s.diff ?? '') && (r.key ?? '') === (s.key ?? '') && r.comment === s.comment && textEqual(r.value, s.value);
  });
}

/** AppendEllipsis: one "..." record at the end, its comment counting what it stands for. */
export function appendEllipsis(list: TextList, stats?: DiffStats): void {
  const last = list.records[list.records.length - 1];
  if (!last || !textEqual(last.value, textEllipsis)) {
    list.records.push({ value: textEllipsis, elideComma: true, comment: stats ? statsString(stats) : undefined, stats } as TextRecord);
    return;
  }
  if (stats) {
    const merged = addStats((last as TextRecord & { stats?: DiffStats }).stats ?? { name: stats.name }, stats);
    (last as TextRecord & { stats?: DiffStats }).stats = merged;
    last.comment = statsString(merged);
  }
}

function indent(n: number, d: DiffMode): string {
  const mark = d === '-' ? '- ' : d === '+' ? '+ ' : d === '' || d === ' ' ? '  ' : '';
  return mark + '\t'.repeat(n);
}

/** textNode.String() of the root. */
export function render(root: TextNode): string {
  const [, compact] = compactTo(root, '');
  return `${indent(0, '')}${expandedTo(compact, '', 0)}\n`;
}

/** formatCompactTo: the one-line text, and the node with every collapsible part collapsed. */
function compactTo(n: TextNode, d: DiffMode): [string, TextNode] {
  if (n instanceof TextLine) return [n.s, n];
  if (n instanceof TextWrap) {
    const [inner, v] = compactTo(n.value, d);
    const s = n.prefix + inner + n.suffix;
    return [s, v instanceof TextLine ? new TextLine(s) : new TextWrap(n.prefix, v, n.suffix)];
  }
  let b = '';
  let multiLine = false;
  const recs = n.records.map((r, i) => {
    if (r.diff === '+' || r.diff === '-') multiLine = true;
    b += r.key ?? '';
    if (r.key) b += ': ';
    const [s, v] = compactTo(r.value, orMode(d, r.diff));
    b += s;
    if (!(v instanceof TextLine)) multiLine = true;
    if (r.comment !== undefined) multiLine = true;
    if (i < n.records.length - 1) b += ', ';
    return { ...r, value: v };
  });
  if ((d === '+' || d === '-') && Buffer.byteLength(b) > maxColumnLength) multiLine = true;
  return multiLine ? [b, new TextList(recs)] : [b, new TextLine(b)];
}

function expandedTo(n: TextNode, d: DiffMode, ind: number): string {
  if (n instanceof TextLine) return n.s;
  if (n instanceof TextWrap) return n.prefix + expandedTo(n.value, d, ind) + n.suffix;
  const recs = n.records;
  const keyPad = alignLens(recs, (r) => !r.key || !(r.value instanceof TextLine), (r) => runes(r.key ?? ''));
  const valuePad = alignLens(recs, (r) => !(r.value instanceof TextLine) || textEqual(r.value, textEllipsis) || r.comment === undefined,
    (r) => runes((r.value as TextLine).s));

  // A list of plain values only: several to a line.
  const simple = recs.length > 0 && recs.every((r) => !r.diff && !r.key && r.value instanceof TextLine && r.comment === undefined);
  let b = '';
  if (simple) {
    let batch = '';
    const emit = (): void => {
      if (batch) b += `\n${indent(ind + 1, d)}${batch.replace(/ +$/, '')}`;
      batch = '';
    };
    for (const r of recs) {
      const line = (r.value as TextLine).s;
      if (Buffer.byteLength(batch) + Buffer.byteLength(line) + 2 > maxColumnLength) emit();
      batch += `${line}, `;
    }
    emit();
    return `${b}\n${indent(ind, d)}`;
  }
  recs.forEach((r, i) => {
    const rd = orMode(d, r.diff);
    b += `\n${indent(ind + 1, rd)}`;
    if (r.key) b += `${r.key}: `;
    b += ' '.repeat(keyPad[i]);
    b += expandedTo(r.value, rd, ind + 1);
    if (!r.elideComma) b += ',';
    b += ' '.repeat(valuePad[i]);
    if (r.comment !== undefined) b += ` // ${r.comment}`;
  });
  return `${b}\n${indent(ind, d)}`;
}

/** Padding that aligns runs of records not broken by one skip() says breaks the column. */
function alignLens(recs: TextRecord[], skip: (r: TextRecord) => boolean, len: (r: TextRecord) => number): number[] {
  const pads = new Array<number>(recs.length).fill(0);
  let start = 0;
  let end = 0;
  let max = 0;
  const flush = (): void => { for (let j = start; j < end; j++) pads[j] = max - len(recs[j]); };
  recs.forEach((r, i) => {
    if (skip(r)) {
      flush();
      start = end = i + 1;
      max = 0;
    } else {
      max = Math.max(max, len(r));
      end = i + 1;
    }
  });
  flush();
  return pads;
}

export interface DiffStats { name: string; ignored?: number; identical?: number; removed?: number; inserted?: number; modified?: number }

export function addStats(a: DiffStats, b: DiffStats): DiffStats {
  return {
    name: a.name,
    identical: (a.identical ?? 0) + (b.identical ?? 0),
    removed: (a.removed ?? 0) + (b.removed ?? 0),
    inserted: (a.inserted ?? 0) + (b.inserted ?? 0),
    modified: (a.modified ?? 0) + (b.modified ?? 0),
  };
}

export const numDiff = (s: DiffStats): number => (s.removed ?? 0) + (s.inserted ?? 0) + (s.modified ?? 0);

/** "3 identical fields", "1 removed and 2 inserted elements", with English plurals. */
export function statsString(s: DiffStats): string {
  const parts: string[] = [];
  let sum = 0;
  for (const [label, count] of [['ignored', s.ignored], ['identical', s.identical], ['removed', s.removed], ['inserted', s.inserted], ['modified', s.modified]] as const) {
    if (count) parts.push(`${count} ${label}`);
    sum += count ?? 0;
  }
  let name = s.name;
  if (sum > 1) {
    name += 's';
    if (name.endsWith('ys')) name = `${name.slice(0, -2)}ies`;
  }
  if (parts.length === 0) return '';
  if (parts.length <= 2) return `${parts.join(' and ')} ${name}`;
  return `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1]} ${name}`;
}
