// Reproduces the error text Go's json.Unmarshal gives for a document decoded into a
// map[string]interface{}: upstream puts that text verbatim into validation errors of
// docker-config Secrets, so clients see Go's wording, not V8's.

class SyntaxError_ extends Error {}

/** Go's quoteChar: the offending byte as a single-quoted Go literal. */
function quoteByte(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  if (named[c]) return `'${named[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if (c >= 0x80 && (c < 0xa1 || c === 0xad)) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

function fail(c: number, context: string): never {
  throw new SyntaxError_(`invalid character ${quoteByte(c)} ${context}`);
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Scanner {
  pos = 0;
  constructor(private readonly b: Buffer) {}

  private peek(): number | undefined {
    return this.b[this.pos];
  }

  /** Next byte; running out of input mid-value is Go's "unexpected end". */
  private next(): number {
    const c = this.b[this.pos++];
    if (c === undefined) throw new SyntaxError_('unexpected end of JSON input');
    return c;
  }

  private skipSpace(): void {
    while (this.pos < this.b.length && isSpace(this.b[this.pos])) this.pos++;
  }

  /** Returns the kind of the top-level value. */
  document(): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
    this.skipSpace();
    const kind = this.value();
    this.skipSpace();
    const c = this.peek();
    if (c !== undefined) fail(c, 'after top-level value');
    return kind;
  }

  private value(): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' {
    const c = this.next();
    switch (c) {
      case 0x7b: this.object(); return 'object';
      case 0x5b: this.array(); return 'array';
      case 0x22: this.string(); return 'string';
      case 0x74: this.literal('true'); return 'bool';
      case 0x66: this.literal('false'); return 'bool';
      case 0x6e: this.literal('null'); return 'null';
      default:
        if (c === 0x2d || isDigit(c)) { this.number(c); return 'number'; }
        return fail(c, 'looking for beginning of value');
    }
  }

  private object(): void {
    this.skipSpace();
    if (this.peek() === 0x7d) { this.pos++; return; }
    for (;;) {
      this.skipSpace();
      const k = this.next();
      if (k !== 0x22) fail(k, 'looking for beginning of object key string');
      this.string();
      this.skipSpace();
      const colon = this.next();
      if (colon !== 0x3a) fail(colon, 'after object key');
      this.skipSpace();
      this.value();
      this.skipSpace();
      const sep = this.next();
      if (sep === 0x7d) return;
      if (sep !== 0x2c) fail(sep, 'after object key:value pair');
    }
  }

  private array(): void {
    this.skipSpace();
    if (this.peek() === 0x5d) { this.pos++; return; }
    for (;;) {
      this.skipSpace();
      this.value();
      this.skipSpace();
      const sep = this.next();
      if (sep === 0x5d) return;
      if (sep !== 0x2c) fail(sep, 'after array element');
    }
  }

  private string(): void {
    for (;;) {
      const c = this.next();
      if (c === 0x22) return;
      if (c < 0x20) fail(c, 'in string literal');
      if (c !== 0x5c) continue;
      const e = this.next();
      if (e === 0x75) {
        for (let i = 0; i < 4; i++) {
          const h = this.next();
          if (!isHex(h)) fail(h, 'in \\u hexadecimal character escape');
        }
      } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) {
        fail(e, 'in string escape code');
      }
    }
  }

  private literal(word: string): void {
    for (let i = 1; i < word.length; i++) {
      const c = this.next();
      if (c !== word.charCodeAt(i)) fail(c, `in literal ${word} (expecting '${word[i]}')`);
    }
  }

  private number(first: number): void {
    let c: number | undefined = first;
    if (c === 0x2d) {
      c = this.next();
      if (!isDigit(c)) fail(c, 'in numeric literal');
    }
    if (c !== 0x30) while (this.peek() !== undefined && isDigit(this.peek()!)) this.pos++;
    if (this.peek() === 0x2e) {
      this.pos++;
      const d = this.next();
      if (!isDigit(d)) fail(d, 'after decimal point in numeric literal');
      while (this.peek() !== undefined && isDigit(this.peek()!)) this.pos++;
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.pos++;
      let d = this.next();
      if (d === 0x2b || d === 0x2d) d = this.next();
      if (!isDigit(d)) fail(d, 'in exponent of numeric literal');
      while (this.peek() !== undefined && isDigit(this.peek()!)) this.pos++;
    }
  }
}

/**
 * The error json.Unmarshal(data, &map[string]interface{}{}) returns, or undefined when
 * it succeeds.
 */
export function goUnmarshalMapError(data: Buffer): string | undefined {
  let kind: string;
  try {
    kind = new Scanner(data).document();
  } catch (err) {
    if (err instanceof SyntaxError_) return err.message;
    throw err;
  }
  if (kind === 'object' || kind === 'null') return undefined;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}
