// Standard 5-field cron schedules as upstream parses them (robfig/cron's standard
// parser, with its error texts), for CronJob validation.
const bounds = [
  { min: 0, max: 59, names: {} as Record<string, number> },
  { min: 0, max: 23, names: {} },
  { min: 1, max: 31, names: {} },
  { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } },
  { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } },
];

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's %s of a []string: [a b c]. */
function goList(fields: string[]): string {
  return `[${fields.join(' ')}]`;
}

/** The parse error of a schedule, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  let spec = schedule.trim();
  if (spec.length === 0) return 'empty spec string';
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    spec = i < 0 ? '' : spec.slice(i).trim();
  }
  if (spec.startsWith('@')) {
    if (descriptors.has(spec)) return undefined;
    if (spec.startsWith('@every ')) return /^[0-9.]+(ns|us|µs|ms|s|m|h)([0-9.]+(ns|us|µs|ms|s|m|h))*$/.test(spec.slice(7).trim()) ? undefined : `failed to parse duration ${spec}`;
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: ${goList(fields)}`;
  for (let i = 0; i < 5; i++) {
    for (const part of fields[i]!.split(',')) {
      const err = rangeError(part, bounds[i]!);
      if (err) return err;
    }
  }
  return undefined;
}

function rangeError(expr: string, b: { min: number; max: number; names: Record<string, number> }): string | undefined {
  const slash = expr.split('/');
  if (slash.length > 2) return `too many slashes: ${expr}`;
  const range = slash[0]!.split('-');
  if (range.length > 2) return `too many hyphens: ${expr}`;
  let start: number;
  let end: number;
  if (range[0] === '*' || range[0] === '?') {
    start = b.min;
    end = b.max;
  } else {
    const s = value(range[0]!, b.names);
    if (typeof s === 'string') return s;
    start = s;
    if (range.length === 2) {
      const e = value(range[1]!, b.names);
      if (typeof e === 'string') return e;
      end = e;
    } else end = start;
  }
  if (slash.length === 2) {
    const step = integer(slash[1]!);
    if (typeof step === 'string') return step;
    if (step <= 0) return `step of range should be a positive number: ${expr}`;
    if (range.length === 1 && range[0] !== '*' && range[0] !== '?') end = b.max;
  }
  if (start < b.min) return `beginning of range (${start}) below minimum (${b.min}): ${expr}`;
  if (end > b.max) return `end of range (${end}) above maximum (${b.max}): ${expr}`;
  if (start > end) return `beginning of range (${start}) beyond end of range (${end}): ${expr}`;
  return undefined;
}

function value(s: string, names: Record<string, number>): number | string {
  const n = names[s.toLowerCase()];
  return n !== undefined ? n : integer(s);
}

function integer(s: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(s)) return `failed to parse int from ${s}: strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = Number(s);
  if (n < 0) return `negative number (${n}) not allowed: ${s}`;
  return n;
}
