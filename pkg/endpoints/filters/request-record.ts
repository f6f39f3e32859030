// The request line's record, written as pino writes it but with its fields serialized by
// one JSON.stringify. pino's own serializer quotes each key and value apart and joins
// them by concatenation: about 2.3 KB allocated for a 300-byte line, on every request at
// --v=3. The record is the same text (pino's level, time and bindings first, the fields
// in their order, undefined ones left out, then "msg"), for a logger configured as
// createLogger configures one; any other (a mixin, hooks, redaction, serializers or
// formatters of its own, a nested key, a message prefix, a multistream, a tracing
// subscriber) and any field that JSON.stringify would write differently from pino (a
// string that is not well-formed UTF-16: pino writes short ones raw) go through pino.
import { tracingChannel } from 'node:diagnostics_channel';
import pino, { type Level, type Logger } from 'pino';

// msgPrefixSym is missing from pino's typings.
const s = pino.symbols as typeof pino.symbols & { readonly msgPrefixSym: symbol };
const asJsonChannel = tracingChannel('pino_asJson');

interface PinoInternals {
  [key: symbol]: unknown;
  levels: { values: Record<string, number> };
}

const plainLoggers = new WeakMap<Logger, boolean>();

function isPlain(log: Logger): boolean {
  let plain = plainLoggers.get(log);
  if (plain === undefined) {
    const p = log as unknown as PinoInternals;
    const formatters = p[s.formattersSym] as { log?: unknown } | undefined;
    const hooks = p[s.hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
    const serializers = p[s.serializersSym] as Record<string, unknown> | undefined;
    const stringifiers = p[s.stringifiersSym] as Record<string | symbol, unknown> | undefined;
    const stream = p[s.streamSym] as Record<symbol, unknown> | undefined;
    plain = !p[s.mixinSym] && !formatters?.log && !hooks?.logMethod && !hooks?.streamWrite
      && !p[s.nestedKeySym] && p[s.msgPrefixSym] === undefined && p[s.messageKeySym] === 'msg'
      && Object.keys(serializers ?? {}).every((k) => k === 'err')
      && Object.keys(stringifiers ?? {}).length === 0 && Object.getOwnPropertySymbols(stringifiers ?? {}).length === 0
      && stream !== undefined && stream[s.needsMetadataGsym] !== true
      && typeof p[s.timeSym] === 'function' && typeof p[s.chindingsSym] === 'string' && typeof p[s.endSym] === 'string';
    plainLoggers.set(log, plain);
  }
  return plain;
}

function wellFormed(fields: Record<string, unknown>): boolean {
  for (const key in fields) {
    const v = fields[key];
    if (typeof v === 'string' && !(v as unknown as { isWellFormed(): boolean }).isWellFormed()) return false;
  }
  return true;
}

/**
 * `log[level](fields, msg)` for a record of scalar fields (strings, finite numbers,
 * booleans, undefined) with no `msg` or `err` among them and a message without `%`.
 */
export function writeRecord(log: Logger, level: Level, fields: Record<string, unknown>, msg: string): void {
  if (!isPlain(log) || asJsonChannel.hasSubscribers || !wellFormed(fields)) {
    log[level](fields, msg);
    return;
  }
  const p = log as unknown as PinoInternals;
  const num = p.levels.values[level]!;
  const body = JSON.stringify(fields);
  const time = (p[s.timeSym] as () => string)();
  const head = (p[s.lsCacheSym] as Record<number, string>)[num]! + time + (p[s.chindingsSym] as string);
  const line = `${head}${body.length > 2 ? `,${body.slice(1, -1)}` : ''},"msg":${JSON.stringify(msg)}${p[s.endSym] as string}`;
  (p[s.streamSym] as { write(line: string): void }).write(line);
}
