// String forms that upstream's decoder parses while reading a body (quantities, base64
// bytes, timestamps). A malformed one fails the whole decode, so these return upstream's
// error text, or undefined when the string is acceptable.

const quantityShape = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const quantitySuffixes = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

export const quantityFormatError = `quantities must match the regular expression '${quantityShape.source}'`;

/** Mirrors resource.ParseQuantity's three failure classes. */
export function quantityError(s: string): string | undefined {
  const str = s.trim();
  const m = quantityShape.exec(str);
  if (!m) return quantityFormatError;
  const digits = m[1].replace(/^[+-]/, '');
  if (!/^(\d+\.?\d*|\.\d+)$/.test(digits)) return 'unable to parse numeric part of quantity';
  const suffix = m[2];
  if (!quantitySuffixes.has(suffix) && !/^[eE][-+]?\d+$/.test(suffix)) return "unable to parse quantity's suffix";
  return undefined;
}

const b64 = /[A-Za-z0-9+/]/;

/** Go's base64.StdEncoding.Decode error ("illegal base64 data at input byte N"), if any. */
export function base64Error(s: string): string | undefined {
  const bad = (i: number) => `illegal base64 data at input byte ${i}`;
  let si = 0;
  while (si < s.length) {
    let j = 0;
    while (j < 4) {
      if (si === s.length) {
        // A partial quantum at the end is an error unless nothing was read.
        if (j === 0) return undefined;
        return bad(si - j);
      }
      const c = s[si++];
      if (c === '\n' || c === '\r') continue;
      if (b64.test(c)) { j++; continue; }
      if (c !== '=') return bad(si - 1);
      // Padding: only after two or three data characters of a quantum.
      if (j < 2) return bad(si - 1);
      if (j === 2) {
        while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
        if (si === s.length) return bad(s.length);
        if (s[si] !== '=') return bad(si - 1);
        si++;
      }
      while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
      return si < s.length ? bad(si) : undefined;
    }
  }
  return undefined;
}

interface LayoutStep { elem: string; re: RegExp; range?: [number, number, string] }

const dateSteps: LayoutStep[] = [
  { elem: '2006', re: /^\d{4}/ },
  { elem: '-', re: /^-/ },
  { elem: '01', re: /^\d{2}/, range: [1, 12, 'month'] },
  { elem: '-', re: /^-/ },
  { elem: '02', re: /^\d{2}/, range: [1, 31, 'day'] },
  { elem: 'T', re: /^T/ },
  { elem: '15', re: /^\d{2}/, range: [0, 23, 'hour'] },
  { elem: ':', re: /^:/ },
  { elem: '04', re: /^\d{2}/, range: [0, 59, 'minute'] },
  { elem: ':', re: /^:/ },
  { elem: '05', re: /^\d{2}/, range: [0, 59, 'second'] },
];

/**
 * time.Parse against RFC 3339 (Time) or RFC 3339 with exactly six fractional digits
 * (MicroTime), reporting the first layout element that does not match, as Go does.
 */
export function timeError(s: string, micro: boolean): string | undefined {
  // Nearly every time a body carries is well formed: one match says so, and only a time
  // that fails it is parsed step by step for Go's message.
  const m = (micro ? wellFormedMicroTime : wellFormedTime).exec(s);
  if (m && inRanges(m)) return dayInMonthError(s);
  return timeErrorSteps(s, micro);
}

/** Go checks the day against its month (and leap years) after the whole layout matched. */
function dayInMonthError(s: string): string | undefined {
  const year = Number(s.slice(0, 4));
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day > days ? `parsing time ${JSON.stringify(s)}: day out of range` : undefined;
}

/** dateSteps' ranges (month, day, hour, minute, second), in the order the expressions below capture them. */
const capturedRanges = dateSteps.flatMap((step) => (step.range ? [step.range] : []));

function inRanges(m: RegExpExecArray): boolean {
  for (let i = 0; i < capturedRanges.length; i++) {
    const n = Number(m[i + 1]);
    if (n < capturedRanges[i]![0] || n > capturedRanges[i]![1]) return false;
  }
  return true;
}

/** What dateSteps and the fraction and zone steps below accept, in one expression (the ranged fields captured). */
const wellFormedTime = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,]\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const wellFormedMicroTime = /^\d{4}-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}(?:Z|[+-]\d{2}:\d{2})$/;

function timeErrorSteps(s: string, micro: boolean): string | undefined {
  const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
  const fail = (rest: string, elem: string) =>
    `parsing time ${JSON.stringify(s)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(elem)}`;
  let rest = s;
  for (const step of dateSteps) {
    const m = step.re.exec(rest);
    if (!m) return fail(rest, step.elem);
    if (step.range) {
      const n = Number(m[0]);
      if (n < step.range[0] || n > step.range[1]) return `parsing time ${JSON.stringify(s)}: ${step.range[2]} out of range`;
    }
    rest = rest.slice(m[0].length);
  }
  if (micro) {
    const m = /^\.\d{6}/.exec(rest);
    if (!m) return fail(rest, '.000000');
    rest = rest.slice(m[0].length);
  } else {
    const m = /^[.,]\d+/.exec(rest);
    if (m) rest = rest.slice(m[0].length);
  }
  const zone = /^(Z|[+-]\d{2}:\d{2})/.exec(rest);
  if (!zone) return fail(rest, 'Z07:00');
  rest = rest.slice(zone[0].length);
  if (rest) return `parsing time ${JSON.stringify(s)}: extra text: ${JSON.stringify(rest)}`;
  return dayInMonthError(s);
}

/**
 * The form upstream serves []byte in: Go's decoder skips CR and LF and ignores the unused
 * bits of the last character, and the encoder writes standard padded base64. `s` has
 * passed base64Error.
 */
export function canonicalBase64(s: string): string {
  return Buffer.from(s, 'base64').toString('base64');
}
