// JSON text token by token: where each string, scalar and punctuation mark starts and ends.
// Walkers that need the text as written (fieldValidation's key paths and float literals in
// json-keys.ts, a JSON patch's strings as written in written-strings.ts) follow the nesting
// themselves over these tokens; JSON.parse gives only values.
//
// Callers pass text JSON.parse accepted, and the tokenizer does not check the grammar (which
// token may follow which). It does end on any text: it throws MalformedJsonError at an
// unterminated string, at a character no token starts with, and at a scalar that is not
// exactly a JSON number, true, false or null, so a walker fed bad text fails rather than
// loops or reads a value that is not there.
//
// Every create and update body may be scanned (fieldValidation defaults to Warn), so strings
// are found with native searches: the closing quote with one indexOf, escapes through the
// next backslash of the text, remembered, so a string without any costs no loop per character.

export class MalformedJsonError extends Error {
  constructor(readonly at: number, reason: string) {
    super(`malformed JSON at ${at}: ${reason}`);
  }
}

/** The last token's kind: a punctuation mark is its own character code. */
export const END = 0;
export const SCALAR = 1;
export const STRING = 0x22;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COLON = 0x3a;
export const COMMA = 0x2c;

const BACKSLASH = 0x5c;
const MINUS = 0x2d;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** What may follow a scalar (NaN: the text's end). */
const endsScalar = (c: number): boolean => c !== c || isSpace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === COLON;

export class JsonTokens {
  /** Where the last token read starts. */
  start = 0;
  /** Just past the last token read. */
  end = 0;
  /** The last string token holds an escape. */
  escaped = false;
  /** The first backslash at or after the last string's start; -1: none left in the text. */
  private nextBackslash: number;

  constructor(readonly text: string) {
    this.nextBackslash = text.indexOf('\\');
  }

  /** Reads the next token: its kind, with `start` and `end` set. END past the last one. */
  next(): number {
    const text = this.text;
    let i = this.end;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    this.start = i;
    if (i >= text.length) {
      this.end = i;
      return END;
    }
    const c = text.charCodeAt(i);
    switch (c) {
      case STRING:
        this.end = this.stringEnd(i);
        return STRING;
      case OPEN_OBJECT: case CLOSE_OBJECT: case OPEN_ARRAY: case CLOSE_ARRAY: case COLON: case COMMA:
        this.end = i + 1;
        return c;
      default:
        this.end = this.scalarEnd(i);
        return SCALAR;
    }
  }

  /** The last token's text as written (a string's with its quotes). */
  raw(): string {
    return this.text.slice(this.start, this.end);
  }

  /** The last token, a string, decoded. */
  string(): string {
    if (!this.escaped) return this.text.slice(this.start + 1, this.end - 1);
    try {
      return JSON.parse(this.raw()) as string;
    } catch (err) {
      throw new MalformedJsonError(this.start, (err as Error).message);
    }
  }

  /** Past the closing quote of the string opening at `open`. */
  private stringEnd(open: number): number {
    const text = this.text;
    let i = open + 1;
    const close = text.indexOf('"', i);
    if (close === -1) throw new MalformedJsonError(open, 'unterminated string');
    if (this.nextBackslash !== -1 && this.nextBackslash < i) this.nextBackslash = text.indexOf('\\', i);
    if (this.nextBackslash === -1 || this.nextBackslash > close) {
      this.escaped = false;
      return close + 1;
    }
    this.escaped = true;
    while (i < text.length) {
      const c = text.charCodeAt(i++);
      if (c === BACKSLASH) i++;
      else if (c === STRING) return i;
    }
    throw new MalformedJsonError(open, 'unterminated string');
  }

  /** Past the number, true, false or null starting at `at`. */
  private scalarEnd(at: number): number {
    const text = this.text;
    const c = text.charCodeAt(at);
    let i = at;
    if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
      if (text.startsWith(word, at)) i = at + word.length;
    } else if (c === MINUS || isDigit(c)) {
      i = numberEnd(text, at);
    }
    if (i === at || !endsScalar(text.charCodeAt(i))) throw new MalformedJsonError(at, 'not a JSON value');
    return i;
  }
}

/** Past JSON's number grammar from `at`; `at` itself when no number starts there. */
function numberEnd(text: string, at: number): number {
  let i = at;
  if (text.charCodeAt(i) === MINUS) i++;
  const first = text.charCodeAt(i);
  if (!isDigit(first)) return at;
  i++;
  if (first !== 0x30) while (isDigit(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) === 0x2e) {
    if (!isDigit(text.charCodeAt(++i))) return at;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === MINUS) i++;
    if (!isDigit(text.charCodeAt(i))) return at;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}
