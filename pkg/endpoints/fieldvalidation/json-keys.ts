// Where each object key of a JSON document sits, with the paths upstream's strict
// decoder prints (`spec.template.spec.containers[0].name`, `[1].path` for a list at the
// top) and whether it repeats a key of the same object. The text must be valid JSON.
// Every create and update body is scanned (fieldValidation defaults to Warn), the
// bootstrap writes of a start among them, so it reads character codes and slices keys
// without escapes rather than parsing each key: a fresh process scanned 270 bodies of a
// bootstrap ClusterRole's size (1.5 KB, 45 keys) in 27 ms of CPU, not 33; 2,700 in 66, not 104.
import { pathOf, type Segments } from '../../openapi/unknown-fields.js';
import type { FloatLiteral } from '../../openapi/float-literals.js';

export interface KeyOccurrence {
  path: string;
  /** The key already appeared earlier in the same object. */
  duplicate: boolean;
  /** Position in document order. */
  order: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

export function scanJsonKeys(text: string): KeyOccurrence[] {
  return scan(text, false);
}

// A number with a fraction or exponent, or of 16 digits or more, right after a key's colon
// or in a list: the native search every body pays; only a body it matches (or a string
// that looks like one) is scanned.
const floatAfterColonOrInList = /(?:":|[[,])\s*-?(?:\d+[.eE]|\d{16})/;

/**
 * The numbers of a JSON document JSON.parse does not read as written: floats (it reads
 * `3.0` as 3, which Go's decoder refuses for an integer field and prints as written) and
 * integers of 16 digits or more (past 2^53 a double is not the literal, whose range Go
 * checks exactly).
 */
export function floatLiterals(text: string): FloatLiteral[] {
  if (!floatAfterColonOrInList.test(text)) return [];
  const floats: FloatLiteral[] = [];
  scan(text, true, floats);
  return floats;
}

/**
 * scanJsonKeys' repeated keys only: what a body with no unknown field (nearly every one)
 * is checked for. Only their paths are printed; `order` still counts every key.
 */
export function duplicateJsonKeys(text: string): KeyOccurrence[] {
  return scan(text, true);
}

function scan(text: string, onlyDuplicates: boolean, floats?: FloatLiteral[]): KeyOccurrence[] {
  const out: KeyOccurrence[] = [];
  // The path of the value being read, printed only for a key reported.
  const path: Segments = [];
  let keys = 0;
  const end = text.length;
  let i = 0;
  const ws = (): void => {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
  };
  // The first backslash at or after the position last asked about (-1: none left), so
  // a string without escapes is found with two native searches, not a loop per character
  // (a ConfigMap's 1 KB value was most of a create body's scan).
  let nextBackslash = text.indexOf('\\');
  /** The string starting at i (a quote), its escapes decoded; i ends past its closing quote. */
  const readString = (): string => {
    const start = i++;
    const close = text.indexOf('"', i);
    if (nextBackslash !== -1 && nextBackslash < i) nextBackslash = text.indexOf('\\', i);
    if (close !== -1 && (nextBackslash === -1 || nextBackslash > close)) {
      i = close + 1;
      return text.slice(start + 1, close);
    }
    let escaped = false;
    while (i < end) {
      const c = text.charCodeAt(i++);
      if (c === BACKSLASH) { escaped = true; i++; continue; }
      if (c === QUOTE) break;
    }
    return escaped ? JSON.parse(text.slice(start, i)) as string : text.slice(start + 1, i - 1);
  };
  const value = (): void => {
    ws();
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT) {
      i++;
      const seen = new Set<string>();
      ws();
      if (text.charCodeAt(i) === CLOSE_OBJECT) { i++; return; }
      for (;;) {
        ws();
        const key = readString();
        const duplicate = seen.has(key);
        path.push(key);
        if (duplicate || !onlyDuplicates) out.push({ path: pathOf(path), duplicate, order: keys });
        keys++;
        seen.add(key);
        ws();
        i++; // ':'
        value();
        path.pop();
        ws();
        if (text.charCodeAt(i) === COMMA) { i++; continue; }
        i++; // '}'
        return;
      }
    }
    if (c === OPEN_ARRAY) {
      i++;
      ws();
      if (text.charCodeAt(i) === CLOSE_ARRAY) { i++; return; }
      for (let n = 0; ; n++) {
        path.push(n);
        value();
        path.pop();
        ws();
        if (text.charCodeAt(i) === COMMA) { i++; continue; }
        i++; // ']'
        return;
      }
    }
    if (c === QUOTE) { readString(); return; }
    // A number, true, false or null: up to the next delimiter.
    const start = i;
    for (;;) {
      const d = text.charCodeAt(i);
      if (i >= end || d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || isSpace(d)) break;
      i++;
    }
    if (floats !== undefined) {
      const first = text.charCodeAt(start);
      const literal = text.slice(start, i);
      // true and false hold an e too.
      if (first !== 0x74 && first !== 0x66 && (/[.eE]/.test(literal) || literal.length - (first === 0x2d ? 1 : 0) >= 16)) {
        floats.push({ path: [...path], text: literal });
      }
    }
  };
  value();
  return out;
}
