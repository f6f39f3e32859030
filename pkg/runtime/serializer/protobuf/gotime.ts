// Go's text forms of the time types that travel as numbers in protobuf: metav1.Time
// (RFC 3339, seconds), metav1.MicroTime (RFC 3339, microseconds) and metav1.Duration
// (time.Duration.String / time.ParseDuration).

/** Seconds of Go's zero time.Time (0001-01-01T00:00:00Z) since the Unix epoch. */
export const goZeroTimeSeconds = -62135596800;

export interface Timestamp { seconds: number; nanos: number }

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * Objects repeat the same few timestamps (creation, managedFields, conditions): both
 * directions are cached, bounded so a stream of distinct times cannot grow them.
 */
const cacheLimit = 4096;
const parsed = new Map<string, Timestamp | undefined>();
const formatted = new Map<number, string>();

/** Parses an RFC 3339 timestamp (any offset, up to nanoseconds); undefined if malformed. */
export function parseRFC3339(text: string): Timestamp | undefined {
  if (parsed.has(text)) return parsed.get(text);
  const t = parseUncached(text);
  if (parsed.size >= cacheLimit) parsed.clear();
  parsed.set(text, t);
  return t;
}

function parseUncached(text: string): Timestamp | undefined {
  const m = rfc3339.exec(text);
  if (!m) return undefined;
  const date = new Date(Date.UTC(2000, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
  // setUTCFullYear, not Date.UTC's year: that one reads years 0-99 as 1900-1999.
  const ms = date.setUTCFullYear(Number(m[1]));
  if (Number.isNaN(ms)) return undefined;
  let seconds = Math.floor(ms / 1000);
  if (m[8]) seconds -= (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 3600 + Number(m[10]) * 60);
  const nanos = m[7] ? Number(m[7].padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Go's UTC RFC 3339 form; `fractionDigits` 6 for MicroTime. */
export function formatRFC3339(t: Timestamp, fractionDigits = 0): string {
  if (fractionDigits !== 0) return formatUncached(t, fractionDigits);
  let s = formatted.get(t.seconds);
  if (s === undefined) {
    s = formatUncached(t, 0);
    if (formatted.size >= cacheLimit) formatted.clear();
    formatted.set(t.seconds, s);
  }
  return s;
}

/**
 * The form upstream serves a time in once decoded into its Go type: UTC, cut (never
 * rounded) to seconds (Time) or microseconds (MicroTime, `fractionDigits` 6), and null
 * for Go's zero time. Undefined when `text` is no RFC 3339 time (the decoder has
 * rejected it by then).
 */
export function canonicalRFC3339(text: string, fractionDigits = 0): string | null | undefined {
  const t = parseRFC3339(text);
  if (!t) return undefined;
  const unit = 10 ** (9 - fractionDigits);
  const kept: Timestamp = { seconds: t.seconds, nanos: fractionDigits === 0 ? 0 : Math.floor(t.nanos / unit) * unit };
  if (kept.seconds === goZeroTimeSeconds && kept.nanos === 0) return null;
  return formatRFC3339(kept, fractionDigits);
}

function formatUncached(t: Timestamp, fractionDigits: number): string {
  const d = new Date(t.seconds * 1000);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (fractionDigits === 0) return `${base}Z`;
  return `${base}.${pad(Math.floor(t.nanos / 10 ** (9 - fractionDigits)), fractionDigits)}Z`;
}

const unitNanos: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** time.ParseDuration: "1h2m3.5s", "-1.5h", "300ms"; nanoseconds, undefined if malformed. */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/;
  while (s.length > 0) {
    const m = part.exec(s);
    if (!m) return undefined;
    total += Number(m[1]) * unitNanos[m[2]];
    s = s.slice(m[0].length);
  }
  return sign * Math.round(total);
}

/** time.Duration.String(). */
export function formatGoDuration(nanos: number): string {
  if (nanos === 0) return '0s';
  const neg = nanos < 0;
  let n = Math.abs(nanos);
  let out: string;
  if (n < 1e9) {
    // Sub-second: the largest unit that keeps the integer part non-zero.
    const [unit, size] = n < 1e3 ? ['ns', 1] : n < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    out = `${trimFraction(n / size)}${unit}`;
  } else {
    const h = Math.floor(n / 3600e9);
    n -= h * 3600e9;
    const m = Math.floor(n / 60e9);
    n -= m * 60e9;
    out = `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${trimFraction(n / 1e9)}s`;
  }
  return neg ? `-${out}` : out;
}

function trimFraction(v: number): string {
  return Number(v.toFixed(9)).toString();
}
