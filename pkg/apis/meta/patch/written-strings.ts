// A JSON patch's `test` compares strings as written. Upstream's library (evanphx/json-patch
// v4, lazyNode.equal) compares two scalars by their compacted raw JSON, and the document's
// raw JSON is what Go's encoder wrote for the current object (json.NewEncoder: `<`, `>`,
// `&`, U+2028 and U+2029 escaped as \u003c..., other characters as they are). So a test
// value written with another escape (`"\u0041"` for a stored "A", a raw `<`) does not match.
// Only a patch with a backslash or one of those characters can differ; others skip this.
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, JsonTokens, OPEN_ARRAY, OPEN_OBJECT, STRING } from '../../../util/json-tokens.js';
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
  const tokens = new JsonTokens(text);
  const value = (token: number): unknown => {
    if (token === OPEN_OBJECT) {
      const out: JsonMap = {};
      if (tokens.next() === CLOSE_OBJECT) return out;
      for (;;) {
        const key = tokens.string();
        tokens.next(); // ':'
        setOwn(out, key, value(tokens.next()));
        if (tokens.next() !== COMMA) return out; // '}'
        tokens.next(); // the next key
      }
    }
    if (token === OPEN_ARRAY) {
      const out: unknown[] = [];
      let item = tokens.next();
      if (item === CLOSE_ARRAY) return out;
      for (;;) {
        out.push(value(item));
        if (tokens.next() !== COMMA) return out; // ']'
        item = tokens.next();
      }
    }
    if (token === STRING) return stringAsWritten(tokens.raw());
    return JSON.parse(tokens.raw());
  };
  return value(tokens.next());
}
