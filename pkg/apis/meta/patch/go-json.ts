// Decoding patch bodies with the error texts of Go's encoding/json, which upstream
// returns verbatim in 400 responses ("invalid character 'x' looking for beginning of
// value", "json: cannot unmarshal array into Go value of type ..."). The syntax check
// mirrors Go's scanner state machine on UTF-8 bytes; JSON.parse then builds the value.

export class GoJsonError extends Error {}

export const maxNestingDepth = 10000;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Go's quoteChar: the offending byte as it appears in scanner errors. */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return '\'"\'';
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c]) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // A byte >= 0x80 is quoted as the Latin-1 rune of the same value.
  if ((c >= 0x80 && c <= 0x9f) || c === 0xad) return `'\\u00${c.toString(16).padStart(2, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

const unexpectedEnd = 'unexpected end of JSON input';

function syntaxError(c: number, context: string): GoJsonError {
  return new GoJsonError(`invalid character ${goQuoteChar(c)} ${context}`);
}

const OBJ_KEY = 0;
const OBJ_VALUE = 1;
const ARRAY = 2;

function scanString(b: Uint8Array, start: number): number {
  let i = start + 1;
  for (;;) {
    if (i >= b.length) throw new GoJsonError(unexpectedEnd);
    const c = b[i];
    if (c === 0x22) return i + 1;
    if (c === 0x5c) {
      i++;
      if (i >= b.length) throw new GoJsonError(unexpectedEnd);
      const e = b[i];
      if ('bfnrt\\/"'.includes(String.fromCharCode(e))) {
        i++;
      } else if (e === 0x75) {
        i++;
        for (let k = 0; k < 4; k++, i++) {
          if (i >= b.length) throw new GoJsonError(unexpectedEnd);
          if (!isHex(b[i])) throw syntaxError(b[i], 'in \\u hexadecimal character escape');
        }
      } else {
        throw syntaxError(e, 'in string escape code');
      }
      continue;
    }
    if (c < 0x20) throw syntaxError(c, 'in string literal');
    i++;
  }
}

function scanDigits(b: Uint8Array, i: number): number {
  while (i < b.length && isDigit(b[i])) i++;
  return i;
}

function scanNumber(b: Uint8Array, start: number): number {
  let i = start;
  if (b[i] === 0x2d) {
    i++;
    if (i >= b.length) throw new GoJsonError(unexpectedEnd);
    if (!isDigit(b[i])) throw syntaxError(b[i], 'in numeric literal');
  }
  i = b[i] === 0x30 ? i + 1 : scanDigits(b, i);
  if (i < b.length && b[i] === 0x2e) {
    i++;
    if (i >= b.length) throw new GoJsonError(unexpectedEnd);
    if (!isDigit(b[i])) throw syntaxError(b[i], 'after decimal point in numeric literal');
    i = scanDigits(b, i);
  }
  if (i < b.length && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < b.length && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    if (i >= b.length) throw new GoJsonError(unexpectedEnd);
    if (!isDigit(b[i])) throw syntaxError(b[i], 'in exponent of numeric literal');
    i = scanDigits(b, i);
  }
  return i;
}

function scanLiteral(b: Uint8Array, start: number, word: string): number {
  for (let k = 1; k < word.length; k++) {
    const i = start + k;
    if (i >= b.length) throw new GoJsonError(unexpectedEnd);
    if (b[i] !== word.charCodeAt(k)) throw syntaxError(b[i], `in literal ${word} (expecting '${word[k]}')`);
  }
  return start + word.length;
}

/** Throws a GoJsonError with Go's message when `b` is not valid JSON. */
export function checkJsonSyntax(b: Uint8Array): void {
  const stack: number[] = [];
  type State = 'value' | 'valueOrEmpty' | 'key' | 'keyOrEmpty' | 'end';
  let state: State = 'value';
  let i = 0;
  const push = (kind: number, c: number): void => {
    stack.push(kind);
    if (stack.length > maxNestingDepth) throw syntaxError(c, 'exceeded max depth');
  };
  for (;;) {
    while (i < b.length && isSpace(b[i])) i++;
    if (i >= b.length) {
      if (state === 'end' && stack.length === 0) return;
      throw new GoJsonError(unexpectedEnd);
    }
    const c = b[i];
    if (state === 'valueOrEmpty' && c === 0x5d) {
      stack.pop();
      i++;
      state = 'end';
      continue;
    }
    if (state === 'keyOrEmpty' && c === 0x7d) {
      stack.pop();
      i++;
      state = 'end';
      continue;
    }
    if (state === 'value' || state === 'valueOrEmpty') {
      if (c === 0x7b) { push(OBJ_KEY, c); i++; state = 'keyOrEmpty'; continue; }
      if (c === 0x5b) { push(ARRAY, c); i++; state = 'valueOrEmpty'; continue; }
      state = 'end';
      if (c === 0x22) i = scanString(b, i);
      else if (c === 0x2d || isDigit(c)) i = scanNumber(b, i);
      else if (c === 0x74) i = scanLiteral(b, i, 'true');
      else if (c === 0x66) i = scanLiteral(b, i, 'false');
      else if (c === 0x6e) i = scanLiteral(b, i, 'null');
      else throw syntaxError(c, 'looking for beginning of value');
      continue;
    }
    if (state === 'key' || state === 'keyOrEmpty') {
      if (c !== 0x22) throw syntaxError(c, 'looking for beginning of object key string');
      i = scanString(b, i);
      state = 'end';
      continue;
    }
    // state === 'end': a value just finished.
    if (stack.length === 0) throw syntaxError(c, 'after top-level value');
    const top = stack.length - 1;
    if (stack[top] === OBJ_KEY) {
      if (c !== 0x3a) throw syntaxError(c, 'after object key');
      stack[top] = OBJ_VALUE;
      state = 'value';
    } else if (stack[top] === OBJ_VALUE) {
      if (c === 0x2c) { stack[top] = OBJ_KEY; state = 'key'; }
      else if (c === 0x7d) { stack.pop(); state = 'end'; }
      else throw syntaxError(c, 'after object key:value pair');
    } else if (c === 0x2c) {
      state = 'value';
    } else if (c === 0x5d) {
      stack.pop();
      state = 'end';
    } else {
      throw syntaxError(c, 'after array element');
    }
    i++;
  }
}

/** Parses a JSON body, failing like Go's json.Unmarshal on a syntax error. */
export function parseJsonLikeGo(body: string | Uint8Array): unknown {
  // JSON.parse accepts exactly what Go's scanner does but for nesting deeper than Go's
  // limit, which only a longer text can reach; the scan (a patch's largest step) runs only
  // for such a text or for a failure's message. Text with a lone surrogate goes the long
  // way, whose UTF-8 round trip replaces it.
  const text = typeof body === 'string' ? body : undefined;
  if (text !== undefined && text.length <= 2 * maxNestingDepth && (text as WellFormed).isWellFormed()) {
    try {
      return JSON.parse(text);
    } catch {
      // Go's message, below.
    }
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  checkJsonSyntax(bytes);
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}

type WellFormed = string & { isWellFormed(): boolean };

/** The JSON kind word Go uses in UnmarshalTypeError messages. */
export function jsonKindWord(v: unknown): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return 'number';
}

/** Go's message for decoding a JSON value of the wrong kind into `goType`. */
export function unmarshalTypeMessage(v: unknown, goType: string): string {
  return `json: cannot unmarshal ${jsonKindWord(v)} into Go value of type ${goType}`;
}

/**
 * A patch argument as the algorithms take it: raw bytes or text are parsed with Go's
 * syntax rules, and a syntax error becomes `onSyntaxError(message)`; anything else is
 * an already-decoded value.
 */
export function decodePatchValue(patch: unknown, onSyntaxError: (message: string) => Error): unknown {
  if (typeof patch !== 'string' && !(patch instanceof Uint8Array)) return patch;
  try {
    return parseJsonLikeGo(patch);
  } catch (e) {
    if (e instanceof GoJsonError) throw onSyntaxError(e.message);
    throw e;
  }
}
