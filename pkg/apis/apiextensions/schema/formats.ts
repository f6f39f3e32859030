// The string formats a CR schema may declare and how a value is checked against each
// (upstream: apiextensions' StripUnsupportedFormatsPostProcess decides which formats
// survive; kube-openapi's strfmt.Default registry, backed by govalidator and Go's net,
// net/mail, net/url and time packages, checks them). Checks here follow those Go
// functions closely but are re-expressed as regular expressions and small parsers.
import { parseIPSloppy } from '../../validation/ip.js';

/** Registry names are compared with dashes removed ("date-time" is "datetime"). */
export function normalizeFormat(name: string): string {
  return name.replace(/-/g, '');
}

/**
 * The format kept for a schema node, or '' when upstream strips it: string formats from
 * the registry list, int32/int64 on integers, float/double on numbers, nothing else.
 */
export function effectiveFormat(format: unknown, type: unknown): string {
  if (typeof format !== 'string' || format === '') return '';
  const t = typeof type === 'string' ? type : '';
  if (t === '' || t === 'string') return checkers.has(normalizeFormat(format)) ? format : '';
  if (t === 'integer') return format === 'int32' || format === 'int64' ? format : '';
  if (t === 'number') return format === 'float' || format === 'double' ? format : '';
  return '';
}

/** Whether the registry validates this (kept) format at all: only string formats are. */
export function isRegisteredFormat(format: string): boolean {
  return checkers.has(normalizeFormat(format));
}

export function validatesFormat(format: string, value: string): boolean {
  const check = checkers.get(normalizeFormat(format));
  return check ? check(value) : false;
}

/** Go's net.ParseIP: strict dotted quads (no leading zeros), IPv6 without zone. */
function goParseIP(s: string): boolean {
  if (/^[\d.]+$/.test(s) && s.split('.').some((p) => p.length > 1 && p.startsWith('0'))) return false;
  return parseIPSloppy(s) !== undefined;
}

function isCIDR(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const addr = s.slice(0, i);
  const mask = s.slice(i + 1);
  if (!goParseIP(addr) || !/^\d+$/.test(mask)) return false;
  const bits = addr.includes(':') ? 128 : 32;
  return Number(mask) <= bits;
}

function isMAC(s: string): boolean {
  const colon = /^[0-9a-fA-F]{2}(?:([:-])[0-9a-fA-F]{2})+$/.exec(s);
  if (colon) {
    const n = (s.length + 1) / 3;
    return s.split(colon[1]).length === n && [6, 8, 20].includes(n);
  }
  if (/^[0-9a-fA-F]{4}(?:\.[0-9a-fA-F]{4})+$/.test(s)) return [6, 8, 20].includes((2 * (s.length + 1)) / 5);
  return false;
}

function isISBN(s: string, version: 10 | 13): boolean {
  const d = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(d)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(d[i]);
    sum += 10 * (d[9] === 'X' ? 10 : Number(d[9]));
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(d[i]);
  return Number(d[12]) === (10 - (sum % 10)) % 10;
}

function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]+/g, '');
  const card = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/;
  if (!card.test(d)) return false;
  let sum = 0;
  let double = false;
  for (let i = d.length - 1; i >= 0; i--) {
    let n = Number(d[i]);
    if (double) { n *= 2; if (n > 9) n -= 9; }
    sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Go's time.Parse("2006-01-02"): the day must exist in that month. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return d <= days;
}

/** strfmt.IsDateTime: a date, a "T" (any case), and hh:mm:ss[.frac](Z|±hh:mm). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

/** Go's time.ParseDuration, then strfmt's lenient "3 days" form. */
function isDuration(s: string): boolean {
  if (/^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.test(s) || /^[-+]?0$/.test(s)) return true;
  if (!/^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$/.test(s)) return false;
  const units = [['ns', 'nano'], ['us', 'µs', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'],
    ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = m[2].trim().toLowerCase();
    if (units.some((vs) => vs.some((v, i) => v === unit || (i === vs.length - 1 && unit.startsWith(v))))) return true;
  }
  return false;
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path, escapes well-formed. */
function isRequestURI(s: string): boolean {
  if (s === '' || /[\x00-\x1f\x7f]/.test(s)) return false;
  if (s === '*') return true;
  const badEscape = (x: string) => /%(?![0-9a-fA-F]{2})/.test(x);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(s);
  if (s.startsWith(':')) return false;
  let rest = scheme ? s.slice(scheme[0].length) : s;
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return scheme !== null;
  if (scheme && rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const host = authority.slice(authority.lastIndexOf('@') + 1);
    const port = /^(?:\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(host);
    if (!port || (port[1] !== undefined && !/^\d*$/.test(port[1])) || badEscape(host)) return false;
    rest = end < 0 ? '' : rest.slice(end);
  }
  return !badEscape(rest);
}

/** net/mail.ParseAddress, for the common shapes: addr-spec, optionally in <...> after a name. */
function isEmail(s: string): boolean {
  const angle = /^[^<>]*<([^<>]+)>\s*$/.exec(s);
  const addr = angle ? angle[1] : s.trim();
  const atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
  const local = `(?:${atom}(?:\\.${atom})*|"(?:[^"\\\\]|\\\\.)*")`;
  const domain = `(?:${atom}(?:\\.${atom})*|\\[[^\\[\\]\\\\]*\\])`;
  return new RegExp(`^${local}@${domain}$`).test(addr);
}

function isHostname(s: string): boolean {
  const c = '[a-zA-Z0-9\\p{S}\\p{L}]';
  const h = '[a-zA-Z0-9\\-\\p{S}\\p{L}]';
  const rx = new RegExp(`^(${c}((-?${c}{0,62})?)|(${c}((${h}{0,61}${c})?)(\\.)){1,}(${c})(-?${c}){1,62})$`, 'u');
  return rx.test(s) && Buffer.byteLength(s) <= 255 && s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

const rxUUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const rxUUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const rxUUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const rxUUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;

const checkers = new Map<string, (s: string) => boolean>([
  ['bsonobjectid', (s) => /^[0-9a-fA-F]{24}$/.test(s)],
  ['uri', isRequestURI],
  ['email', isEmail],
  ['hostname', isHostname],
  ['ipv4', (s) => goParseIP(s) && s.includes('.')],
  ['ipv6', (s) => goParseIP(s) && s.includes(':')],
  ['cidr', isCIDR],
  ['mac', isMAC],
  ['uuid', (s) => rxUUID.test(s)],
  ['uuid3', (s) => rxUUID3.test(s)],
  ['uuid4', (s) => rxUUID4.test(s)],
  ['uuid5', (s) => rxUUID5.test(s)],
  ['isbn', (s) => isISBN(s, 10) || isISBN(s, 13)],
  ['isbn10', (s) => isISBN(s, 10)],
  ['isbn13', (s) => isISBN(s, 13)],
  ['creditcard', isCreditCard],
  ['ssn', (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s)],
  ['hexcolor', (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s)],
  ['rgbcolor', (s) => /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/.test(s)],
  ['byte', (s) => /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/.test(s)],
  ['password', () => true],
  ['date', isDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
]);
