// Where each object key of a JSON document sits, with the paths upstream's strict
// decoder prints (`spec.template.spec.containers[0].name`, `[1].path` for a list at the
// top) and whether it repeats a key of the same object. The text must be valid JSON.
// A create or update body is scanned when counting cannot rule a repeat out
// (repeated-keys.ts), the bootstrap writes of a start among them, so it goes by the text's
// tokens (json-tokens.ts), which slice keys without escapes rather than parsing each key: a
// fresh process scanned 270 bodies of a bootstrap ClusterRole's size (1.5 KB, 45 keys) in
// 27 ms of CPU, not 33; 2,700 in 66, not 104.
import { pathOf, type Segments } from '../../openapi/unknown-fields.js';
import type { FloatLiteral } from '../../openapi/float-literals.js';
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, JsonTokens, OPEN_ARRAY, OPEN_OBJECT, SCALAR } from '../../util/json-tokens.js';

export interface KeyOccurrence {
  path: string;
  /** The key already appeared earlier in the same object. */
  duplicate: boolean;
  /** Position in document order. */
  order: number;
}

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
  const tokens = new JsonTokens(text);
  const value = (token: number): void => {
    if (token === OPEN_OBJECT) {
      const seen = new Set<string>();
      if (tokens.next() === CLOSE_OBJECT) return;
      for (;;) {
        const key = tokens.string();
        const duplicate = seen.has(key);
        path.push(key);
        if (duplicate || !onlyDuplicates) out.push({ path: pathOf(path), duplicate, order: keys });
        keys++;
        seen.add(key);
        tokens.next(); // ':'
        value(tokens.next());
        path.pop();
        if (tokens.next() !== COMMA) return; // '}'
        tokens.next(); // the next key
      }
    }
    if (token === OPEN_ARRAY) {
      let item = tokens.next();
      if (item === CLOSE_ARRAY) return;
      for (let n = 0; ; n++) {
        path.push(n);
        value(item);
        path.pop();
        if (tokens.next() !== COMMA) return; // ']'
        item = tokens.next();
      }
    }
    if (token === SCALAR && floats !== undefined) {
      const first = text.charCodeAt(tokens.start);
      const literal = tokens.raw();
      // true and false hold an e too.
      if (first !== 0x74 && first !== 0x66 && (/[.eE]/.test(literal) || literal.length - (first === 0x2d ? 1 : 0) >= 16)) {
        floats.push({ path: [...path], text: literal });
      }
    }
  };
  value(tokens.next());
  return out;
}
