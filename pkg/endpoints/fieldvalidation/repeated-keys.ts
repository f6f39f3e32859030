// Whether a JSON document repeats no key, known without scanning it key by key: nearly
// every create and update body repeats none, and the scan that finds where one repeats
// (json-keys.ts) cost a 1 KB ConfigMap's create 1.7 us warm, its parse 1.3.
//
// Every key of the text ends in a quote, optional whitespace and a colon, and every colon
// outside a string is such a key's: so the colons whose last non-space character before
// them is a quote are at least as many as the key occurrences (a colon inside a string can
// only add to them). The parsed document holds each object's keys once. When the two
// counts agree, every key occurred once.

const QUOTE = 0x22;
const COLON = ':';
const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

// Deeper documents are left to the scan (the count recurses; JSON.parse does not).
const maxDepth = 256;

/** True only when `text`, which parsed as `parsed`, has no object repeating a key. */
export function keysAppearOnce(text: string, parsed: unknown): boolean {
  const distinct = distinctKeys(parsed, 0);
  return distinct >= 0 && distinct === colonsAfterQuotes(text);
}

function colonsAfterQuotes(text: string): number {
  let n = 0;
  for (let at = text.indexOf(COLON); at !== -1; at = text.indexOf(COLON, at + 1)) {
    let j = at - 1;
    while (j >= 0 && isSpace(text.charCodeAt(j))) j--;
    if (j >= 0 && text.charCodeAt(j) === QUOTE) n++;
  }
  return n;
}

/** Keys of every object in `v`; -1 past maxDepth. */
function distinctKeys(v: unknown, depth: number): number {
  if (v === null || typeof v !== 'object') return 0;
  if (depth > maxDepth) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const k = distinctKeys(v[i], depth + 1);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  const obj = v as Record<string, unknown>;
  for (const key in obj) {
    const k = distinctKeys(obj[key], depth + 1);
    if (k < 0) return -1;
    n += k + 1;
  }
  return n;
}
