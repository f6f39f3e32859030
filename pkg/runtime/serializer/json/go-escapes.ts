// JSON text as upstream's encoder writes it. Upstream encodes every JSON answer, watch
// frame and stored value with Go's encoding/json (json.NewEncoder(w).Encode, or Marshal /
// MarshalIndent for pretty output), whose HTML escaping is on: inside strings (keys too)
// `<`, `>` and `&` become \u003c, \u003e and \u0026, and U+2028 / U+2029 always \u2028 /
// \u2029. The Go releases v1.28 is built with (1.20, 1.21) also write backspace and form
// feed as \u0008 and \u000c, where JSON.stringify writes \b and \f. A lone UTF-16
// surrogate (which only a client's JSON escape, \ud800, can put in a string) JSON.stringify
// writes as that escape; Go never holds one: its decoder reads each as U+FFFD (unquote's
// "invalid surrogate; fall back to replacement rune"), which its encoder writes as the
// character itself. Everything else JSON.stringify writes the same.
//
// JSON.stringify's output is rewritten only when it holds one of these: outside strings
// its text has none of them, so a raw `<` is always inside a string, and a `\b` found by
// scanning the escapes from the start is always an escape. The test for them is a few
// indexOf scans (about 0.2 us a kilobyte, against about 7 us to stringify that kilobyte);
// a regular expression's test cost ten times more.

const goEscapeOf: Record<string, string> = {
  '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029', '\\b': '\\u0008', '\\f': '\\u000c',
};

/**
 * An escape sequence (kept as it is unless Go writes it otherwise: JSON.stringify escapes
 * a surrogate only when it is alone), or a character Go escapes.
 */
const rewritten = /\\(?:[^u]|ud[89a-f][0-9a-f]{2})|[<>&\u2028\u2029]/g;

/** Whether JSON.stringify's `text` may differ from Go's (a `\\b` in it may be an escaped backslash: rewritten finds out). */
function mayDiffer(text: string): boolean {
  return text.includes('<') || text.includes('>') || text.includes('&') || text.includes('\u2028') || text.includes('\u2029')
    || text.includes('\\b') || text.includes('\\f') || text.includes('\\ud');
}

function goEscape(m: string): string {
  return goEscapeOf[m] ?? (m.length === 6 ? '\ufffd' : m);
}

/** JSON.stringify's `text` as Go's encoder writes the same value. */
export function goJsonText(text: string): string {
  return mayDiffer(text) ? text.replace(rewritten, goEscape) : text;
}

/** `value` as JSON, written as upstream writes it (two-space indented when `pretty`, as MarshalIndent). */
export function goJson(value: unknown, pretty = false): string {
  return goJsonText(pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value));
}
