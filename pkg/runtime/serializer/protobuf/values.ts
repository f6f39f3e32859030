// JSON-side helpers the protobuf encoder, decoder and special types share, and the one
// error they raise for a value that does not fit its message.
import type { Reader } from './wire.js';

export type Json = Record<string, unknown>;

/** A JSON value that does not fit the message's field (wrong type, malformed time...). */
export class ProtobufShapeError extends Error {}

export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a length prefix; returns where the length-delimited value ends. */
export function readLen(r: Reader): number {
  const len = r.uint32();
  return r.pos + len;
}

export function num(v: unknown, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  throw new ProtobufShapeError(`expected a number for ${what}, got ${JSON.stringify(v)}`);
}
