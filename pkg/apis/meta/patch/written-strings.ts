// A JSON patch's `test` compares strings as written. Upstream's library (evanphx/json-patch
// v4, lazyNode.equal) compares two scalars by their compacted raw JSON, and the document's
// raw JSON is what Go's encoder wrote for the current object (json.NewEncoder: `<`, `>`,
// `&`, U+2028 and U+2029 escaped as \u003c..., other characters as they are). So a test
// value written with another escape (`"\u0041"` for a stored "A", a raw `<`) does not match.
// Only a patch with a backslash or one of those characters can differ; others skip this.
import { type JsonMap, setOwn } from './json-value.js';

/** A string value of the patch whose text is not the one Go's encoder writes for it. */
export class WrittenString {
  constructor(readonly value: string, readonly text: string) {}
}

const mayBeWrittenOtherwise = /[\\<>&\u2028\u2029]/;

/** Go's encoding/json text of a string, HTML characters escaped (the API server's encoder). */
export function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`;
    // A lone surrogate was U+FFFD when Go decoded it, written as the character.
    else if (c >= 0xd800 && c <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/** The string from a `test` value: its text when not Go's (see the header), else the string. */
function stringAsWritten(raw: string): string | WrittenString {
  const value = JSON.parse(raw) as string;
  return raw === goJsonString(value) ? value : new WrittenString(value, raw);
}

/**
 * The `value` of each `test` operation of a valid JSON patch text, with every string
 * value written otherwise than Go's encoder would as a WrittenString (keys are decoded,
 * as the library decodes objects into maps); undefined where there is none to look at.
 */
export function testValuesAsWritten(text: string, ops: ReadonlyArray<JsonMap | null>): Array<unknown> | undefined {
  if (!mayBeWrittenOtherwise.test(text) || !ops.some((op) => op?.op === 'test')) return undefined;
  const parsed = parseKeepingStringText(text);
  if (!Array.isArray(parsed)) return undefined;
  return parsed.map((op) => (op !== null && typeof op === 'object' && (op as JsonMap).op === 'test' ? (op as JsonMap).value : undefined));
}

/** JSON.parse of a valid text, string values (not keys) through stringAsWritten; the last of repeated keys wins, as in Go. */
function parseKeepingStringText(text: string): unknown {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const rawString = (): string => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: JsonMap = {};
      ws();
      if (text[i] === '}') { i++; return out; }
      for (;;) {
        ws();
        const key = JSON.parse(rawString()) as string;
        ws();
        i++; // ':'
        setOwn(out, key, value());
        ws();
        if (text[i++] === '}') return out;
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      ws();
      if (text[i] === ']') { i++; return out; }
      for (;;) {
        out.push(value());
        ws();
        if (text[i++] === ']') return out;
      }
    }
    if (c === '"') return stringAsWritten(rawString());
    const start = i;
    while (i < text.length && !',]} \t\n\r'.includes(text[i])) i++;
    return JSON.parse(text.slice(start, i));
  };
  return value();
}
