// Numbers a JSON body wrote with a fraction or an exponent (`3.0`, `1e2`). JSON.parse reads
// them as plain numbers, but Go's typed decoder refuses them for an integer field (and
// names them as written), so the type check sees them as marks: a Symbol whose
// description is the literal, put where the number was and taken out again after.

/** A number written with a fraction or an exponent, and where it sits in its document. */
export interface FloatLiteral {
  /** Keys and list indices from the document's top. */
  path: Array<string | number>;
  text: string;
}

interface Marked {
  holder: Record<string | number, unknown>;
  key: string | number;
  value: number;
  mark: symbol;
  text: string;
}

/** Puts a mark in place of each literal's number in `doc`; returns what to put back. */
export function markFloatLiterals(doc: unknown, floats: FloatLiteral[]): Marked[] {
  const marked: Marked[] = [];
  for (const f of floats) {
    let holder: unknown = doc;
    const last = f.path.length - 1;
    for (let i = 0; i < last && holder !== null && typeof holder === 'object'; i++) {
      holder = (holder as Record<string | number, unknown>)[f.path[i]];
    }
    if (last < 0 || holder === null || typeof holder !== 'object') continue;
    const h = holder as Record<string | number, unknown>;
    const key = f.path[last];
    const value = h[key];
    // A document the literal's path no longer leads to (a patch result) keeps its number.
    if (typeof value !== 'number' || value !== Number(f.text)) continue;
    const mark = Symbol(f.text);
    h[key] = mark;
    marked.push({ holder: h, key, value, mark, text: f.text });
  }
  return marked;
}

/** Puts the numbers back; `asText`: marks whose literal's text goes back instead. */
export function unmarkFloatLiterals(marked: Marked[], asText?: Set<symbol>): void {
  for (const m of marked) m.holder[m.key] = asText?.has(m.mark) ? m.text : m.value;
}

/** The literal a mark stands for, or undefined for any other value. */
export function floatLiteralText(v: unknown): string | undefined {
  return typeof v === 'symbol' ? v.description : undefined;
}

const placeholder = (text: string): string => `\u0000float ${text}\u0000`;
const quotedPlaceholder = /"\\u0000float ([-+.0-9eE]+)\\u0000"/g;

/**
 * `doc` encoded with its float literals as written (Go's encoder keeps a patched
 * document's raw numbers); `copy` orders it (Go's encoding sorts keys).
 */
export function encodeWithFloatLiterals(doc: unknown, floats: FloatLiteral[], copy: (v: unknown) => unknown): string {
  if (floats.length === 0) return JSON.stringify(copy(doc));
  const marked = markFloatLiterals(doc, floats);
  try {
    const text = JSON.stringify(copy(doc), (_k, v: unknown) => (typeof v === 'symbol' ? placeholder(floatLiteralText(v) ?? '') : v));
    return text.replace(quotedPlaceholder, '$1');
  } finally {
    unmarkFloatLiterals(marked);
  }
}
