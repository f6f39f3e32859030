// Values printed into messages the way upstream's Go code prints them (field.Error uses
// %q for strings, %v for numbers and booleans, %#v for everything else), because
// clients and people compare these messages with upstream's.

/** A value whose Go %#v text the caller knows (a struct of a named Go type). */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** Go's %q for the strings we print (JSON escaping agrees for printable text). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
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
  return String(v);
}
