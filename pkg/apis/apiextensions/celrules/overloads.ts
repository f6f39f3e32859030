// The function declarations of the CEL environment of CRD validation rules in v1.28:
// CEL's standard library, the strings extension (version 2) and Kubernetes' lists,
// regex and urls libraries (quantity arrives in 1.29, authz is not bound for CRDs).
// Signatures are written compactly: `(int,int)int` for a global function,
// `string.(string)bool` for a method; single capitals are type parameters.
import { DYN, listOf, mapOf, prim, type CelT, type Primitive } from './types.js';

export interface Overload {
  /** Receiver type of a method; undefined for a global function. */
  target?: CelT;
  args: CelT[];
  result: CelT;
}

/** The URL values of Kubernetes' url library, an opaque type. */
export const URL_TYPE: CelT = { kind: 'object', name: 'kubernetes.URL', fields: new Map() };

const primitives: Record<string, Primitive> = {
  int: 'int', uint: 'uint', double: 'double', bool: 'bool', string: 'string', bytes: 'bytes', null_type: 'null_type', type: 'type',
  timestamp: 'google.protobuf.Timestamp', duration: 'google.protobuf.Duration',
};

function parseType(src: string): CelT {
  let i = 0;
  const read = (): CelT => {
    const m = /^[A-Za-z_]+/.exec(src.slice(i));
    if (!m) throw new Error(`bad signature ${src}`);
    i += m[0].length;
    const name = m[0];
    if (name === 'list' || name === 'map') {
      i++; // (
      const a = read();
      let b: CelT | undefined;
      if (src[i] === ',') { i++; b = read(); }
      i++; // )
      return name === 'list' ? listOf(a) : mapOf(a, b!);
    }
    if (name === 'dyn') return DYN;
    if (name === 'URL') return URL_TYPE;
    if (/^[A-Z]$/.test(name)) return { kind: 'param', name };
    return prim(primitives[name]!);
  };
  const t = read();
  if (i !== src.length) throw new Error(`bad signature ${src}`);
  return t;
}

function parseSig(sig: string): Overload {
  const open = sig.startsWith('(') ? 0 : sig.indexOf('.(') + 1;
  if (open < 0) throw new Error(`bad signature ${sig}`);
  const args: string[] = [];
  let depth = 0;
  let cur = '';
  let i = open + 1;
  for (; i < sig.length; i++) {
    const ch = sig[i]!;
    if (ch === ')' && depth === 0) break;
    if (ch === ',' && depth === 0) { args.push(cur); cur = ''; continue; }
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    cur += ch;
  }
  if (cur) args.push(cur);
  return { target: open > 0 ? parseType(sig.slice(0, open - 1)) : undefined, args: args.map(parseType), result: parseType(sig.slice(i + 1)) };
}

const numeric = ['int', 'uint', 'double'];
const ordered = [...numeric, 'string', 'bytes', 'bool', 'timestamp', 'duration'];
const comparisons = [
  ...ordered.map((t) => `(${t},${t})bool`),
  ...numeric.flatMap((a) => numeric.filter((b) => b !== a).map((b) => `(${a},${b})bool`)),
];
const timeGetters = ['getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth', 'getDate', 'getDayOfWeek'];
const clockGetters = ['getHours', 'getMinutes', 'getSeconds', 'getMilliseconds'];

const table: Record<string, string[]> = {
  '_+_': ['(int,int)int', '(uint,uint)uint', '(double,double)double', '(string,string)string', '(bytes,bytes)bytes',
    '(list(A),list(A))list(A)', '(timestamp,duration)timestamp', '(duration,timestamp)timestamp', '(duration,duration)duration'],
  '_-_': ['(int,int)int', '(uint,uint)uint', '(double,double)double', '(timestamp,timestamp)duration',
    '(timestamp,duration)timestamp', '(duration,duration)duration'],
  '_*_': ['(int,int)int', '(uint,uint)uint', '(double,double)double'],
  '_/_': ['(int,int)int', '(uint,uint)uint', '(double,double)double'],
  '_%_': ['(int,int)int', '(uint,uint)uint'],
  '-_': ['(int)int', '(double)double'],
  '!_': ['(bool)bool'],
  '_&&_': ['(bool,bool)bool'],
  '_||_': ['(bool,bool)bool'],
  '@not_strictly_false': ['(bool)bool'],
  '_?_:_': ['(bool,A,A)A'],
  '_==_': ['(A,A)bool'],
  '_!=_': ['(A,A)bool'],
  '_<_': comparisons, '_<=_': comparisons, '_>_': comparisons, '_>=_': comparisons,
  '_[_]': ['(list(A),int)A', '(map(K,V),K)V'],
  '@in': ['(A,list(A))bool', '(K,map(K,V))bool'],
  size: ['(string)int', '(bytes)int', '(list(A))int', '(map(K,V))int', 'string.()int', 'bytes.()int', 'list(A).()int', 'map(K,V).()int'],
  contains: ['string.(string)bool'],
  startsWith: ['string.(string)bool'],
  endsWith: ['string.(string)bool'],
  matches: ['string.(string)bool', '(string,string)bool'],
  int: ['(int)int', '(uint)int', '(double)int', '(string)int', '(timestamp)int'],
  uint: ['(uint)uint', '(int)uint', '(double)uint', '(string)uint'],
  double: ['(double)double', '(int)double', '(uint)double', '(string)double'],
  string: ['(string)string', '(int)string', '(uint)string', '(double)string', '(bool)string', '(bytes)string', '(timestamp)string', '(duration)string'],
  bytes: ['(bytes)bytes', '(string)bytes'],
  bool: ['(bool)bool', '(string)bool'],
  timestamp: ['(timestamp)timestamp', '(string)timestamp', '(int)timestamp'],
  duration: ['(duration)duration', '(string)duration'],
  dyn: ['(A)dyn'],
  type: ['(A)type'],
  // strings extension
  charAt: ['string.(int)string'],
  indexOf: ['string.(string)int', 'string.(string,int)int', 'list(A).(A)int'],
  lastIndexOf: ['string.(string)int', 'string.(string,int)int', 'list(A).(A)int'],
  lowerAscii: ['string.()string'],
  upperAscii: ['string.()string'],
  replace: ['string.(string,string)string', 'string.(string,string,int)string'],
  split: ['string.(string)list(string)', 'string.(string,int)list(string)'],
  substring: ['string.(int)string', 'string.(int,int)string'],
  trim: ['string.()string'],
  join: ['list(string).()string', 'list(string).(string)string'],
  format: ['string.(list(dyn))string'],
  'strings.quote': ['(string)string'],
  // Kubernetes lists library
  isSorted: ['list(A).()bool'],
  sum: ['list(A).()A'],
  min: ['list(A).()A'],
  max: ['list(A).()A'],
  // Kubernetes regex library
  find: ['string.(string)string'],
  findAll: ['string.(string)list(string)', 'string.(string,int)list(string)'],
  // Kubernetes urls library
  url: ['(string)URL'],
  isURL: ['(string)bool'],
  getScheme: ['URL.()string'],
  getHost: ['URL.()string'],
  getHostname: ['URL.()string'],
  getPort: ['URL.()string'],
  getEscapedPath: ['URL.()string'],
  getQuery: ['URL.()map(string,list(string))'],
};
for (const g of timeGetters) table[g] = ['timestamp.()int', 'timestamp.(string)int'];
for (const g of clockGetters) table[g] = ['timestamp.()int', 'timestamp.(string)int', 'duration.()int'];

export const overloads: ReadonlyMap<string, readonly Overload[]> = new Map(Object.entries(table).map(([name, sigs]) => [name, sigs.map(parseSig)]));
