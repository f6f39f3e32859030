// `--logging-format=text` (upstream's default): pino's records written as klog's text
// lines, readable in a terminal:
//   I1125 10:51:48.123456   12345 apiserver] "HTTP" verb="GET" URI="/api/v1/pods" resp=200
// (upstream prints file:line where we print the component). Writes are synchronous so
// the last lines before a crash are not lost.
import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

const severity = (level: number): string => (level >= 60 ? 'F' : level >= 50 ? 'E' : level >= 40 ? 'W' : 'I');
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** klog's quoting of a value: strings and structures quoted as JSON, numbers and booleans bare. */
function value(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  return JSON.stringify(JSON.stringify(v));
}

/** One pino JSON record as a klog text line. */
export function klogLine(record: Record<string, unknown>, component = 'apiserver'): string {
  const { level, time, pid, hostname: _h, msg, err, ...rest } = record;
  const t = new Date(typeof time === 'number' ? time : typeof time === 'string' ? Date.parse(time) : Date.now());
  const micros = pad(t.getUTCMilliseconds(), 3) + '000';
  const head = `${severity(Number(level))}${pad(t.getUTCMonth() + 1)}${pad(t.getUTCDate())} `
    + `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}.${micros} `
    + `${String(pid ?? process.pid).padStart(7)} ${component}]`;
  const pairs = Object.entries(rest).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${value(v)}`);
  // Call sites pass an Error or just its message; klog prints either as err="...".
  if (err !== undefined && err !== null) pairs.push(`err=${value(typeof err === 'object' ? (err as { message?: unknown }).message ?? err : err)}`);
  return `${head} ${JSON.stringify(typeof msg === 'string' ? msg : '')}${pairs.length > 0 ? ` ${pairs.join(' ')}` : ''}\n`;
}

/** A pino destination writing klog text lines to `fd` (stderr by default). */
export function klogTextDestination(fd = 2): DestinationStream {
  return {
    write(line: string): void {
      let out = line;
      try {
        out = klogLine(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not a JSON record: written as it came.
      }
      writeSync(fd, out);
    },
  };
}
