// Values printed into messages the way upstream's Go code prints them (field.Error uses
// %q for strings, %v for numbers and booleans, %#v for everything else), because
// clients and people compare these messages with upstream's.

/** A value whose Go %#v text the caller knows (a struct of a named Go type). */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** Go's unicode.IsPrint over a whole string of printable ASCII, in one test (most text). */
export function isPrintableAscii(s: string): boolean {
  return /^[\x20-\x7e]*$/.test(s);
}

/** Go's unicode.IsPrint for one character: letters, marks, numbers, punctuation, symbols and ASCII space. */
export function isPrintable(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

const goEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };

/**
 * Go's %q (strconv.Quote): printable characters as they are, the rest escaped. For
 * printable ASCII JSON's escaping is the same (only `"` and `\`), so that text takes it.
 */
export function goQuote(s: string): string {
  if (isPrintableAscii(s)) return JSON.stringify(s);
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (goEscapes[ch]) out += goEscapes[ch];
    else if (isPrintable(ch)) out += ch;
    else if (cp < 0x80) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Go's %q of a []string: ["a" "b"]. */
export function goQuoteSlice(items: readonly string[]): string {
  return `[${items.map(goQuote).join(' ')}]`;
}

/** Go's %#v of a []string; null is a nil slice. */
export function goStringSlice(items: readonly string[] | null): string {
  if (items === null) return '[]string(nil)';
  return `[]string{${items.map(goQuote).join(', ')}}`;
}

/** A value as field.Error prints it. Objects without a known Go type fall back to JSON. */
export function goValue(v: unknown): string {
  if (v instanceof GoLiteral) return v.text;
  if (typeof v === 'string') return goQuote(v);
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return goStringSlice(v as string[]);
  if (typeof v === 'object') return JSON.stringify(v);
  // An int64 past 2^53 prints all its digits in Go (-9223372036854775808), not JavaScript's rounded 21.
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 2 ** 63) return BigInt(v).toString();
  return String(v);
}
