// upstream's protobuf envelope: the magic "k8s\0", then a runtime.Unknown carrying the
// object's apiVersion and kind beside the object's own message bytes.
import { Reader, Writer } from './wire.js';
import { decodeBytes, encodeInto, ProtobufShapeError } from './codec.js';
import { messageForKind } from './schema.js';

export const protobufMagic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface Envelope { apiVersion: string; kind: string; raw: Uint8Array }

export function hasProtobufMagic(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === 0x6b && b[1] === 0x38 && b[2] === 0x73 && b[3] === 0x00;
}

/** Splits an enveloped body; ProtobufShapeError when it is not one. */
export function openEnvelope(b: Uint8Array): Envelope {
  if (!hasProtobufMagic(b)) throw new ProtobufShapeError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  const r = Reader.create(b.subarray(4));
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array = new Uint8Array(0);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag === 10) {
      const end = r.uint32() + r.pos;
      while (r.pos < end) {
        const t = r.uint32();
        if (t === 10) apiVersion = r.string();
        else if (t === 18) kind = r.string();
        else r.skipType(t & 7);
      }
    } else if (tag === 18) raw = r.bytes();
    else r.skipType(tag & 7);
  }
  return { apiVersion, kind, raw };
}

/** Wraps message bytes produced by `write` in the envelope. */
export function sealEnvelope(apiVersion: string, kind: string, write: (w: Writer) => void): Buffer {
  const w = Writer.create();
  w.raw(protobufMagic);
  w.uint32(10).fork().uint32(10).string(apiVersion).uint32(18).string(kind).ldelim();
  w.uint32(18).fork();
  write(w);
  w.ldelim();
  w.uint32(26).string('').uint32(34).string('');
  return w.finish();
}

/** Whether upstream has a protobuf form for this kind. */
export function canEncode(apiVersion: string, kind: string): boolean {
  return messageForKind(apiVersion, kind) !== undefined;
}

/** Encodes a JSON-form object (with apiVersion and kind) as an enveloped message. */
export function encodeObject(obj: Record<string, unknown>): Buffer {
  const apiVersion = String(obj.apiVersion ?? '');
  const kind = String(obj.kind ?? '');
  const type = messageForKind(apiVersion, kind);
  if (!type) throw new ProtobufShapeError(`no protobuf encoding for ${kind} of ${apiVersion}`);
  return sealEnvelope(apiVersion, kind, (w) => encodeInto(w, type, obj));
}

/** Decodes an enveloped message to its JSON form, kind and apiVersion first as upstream writes them. */
export function decodeObject(b: Uint8Array): Record<string, unknown> {
  const env = openEnvelope(b);
  const type = messageForKind(env.apiVersion, env.kind);
  if (!type) throw new ProtobufShapeError(`no kind "${env.kind}" is registered for version "${env.apiVersion}"`);
  return { kind: env.kind, apiVersion: env.apiVersion, ...(decodeBytes(env.raw, type) as Record<string, unknown>) };
}
