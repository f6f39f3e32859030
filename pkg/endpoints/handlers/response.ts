// Writes an API object in the negotiated representation.
import { recordResponseObject } from '../filters/audit-context.js';
import { stringify } from 'yaml';
import { errors } from '../../runtime/errors.js';
import type { KubeList, KubeObject } from '../../runtime/object.js';
import { negotiateResponse, type MediaChoice } from '../negotiation/media.js';
import { apiVersionOf } from '../../runtime/scheme.js';
import { canEncode, encodeObject } from '../../runtime/serializer/protobuf/envelope.js';
import type { HandlerScope } from './scope.js';
import { partialObjectMetadata, toTable, type IncludeObject } from './table.js';
import { setApiBody, type ApiBody } from '../responsewriters/compression.js';
import { BatchedBody, collectionField, encodeJsonCooperatively, encodeProtobufCooperatively, joinedBatches, totalBytes } from './list-encoder.js';
import { joinPieces, wholeWriteBytes } from './page-buffers.js';
import { goJson } from '../../runtime/serializer/json/go-escapes.js';

/** A write negotiates before it acts and again when it answers: once per handler scope. */
const negotiated = new WeakMap<HandlerScope, MediaChoice>();

export function chooseMedia(h: HandlerScope): MediaChoice {
  let media = negotiated.get(h);
  if (!media) {
    media = negotiateResponse(h.ctx.get('accept'), {
      allowTransforms: h.ctx.method === 'GET',
      pretty: h.query.get('pretty') === 'true',
      protobuf: canEncode(apiVersionOf(h.def.group, h.def.version), h.def.kind),
    });
    negotiated.set(h, media);
  }
  return media;
}

export function includeObjectParam(h: HandlerScope): IncludeObject {
  const v = h.query.get('includeObject') ?? 'Metadata';
  if (v !== 'None' && v !== 'Metadata' && v !== 'Object') {
    throw errors.badRequest(`includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`);
  }
  return v;
}

/** Applies the negotiated transform (Table, PartialObjectMetadata) to an object or list. */
export function transform(h: HandlerScope, media: MediaChoice, body: KubeObject | KubeList | Record<string, unknown>): unknown {
  const isApiObject = (body as KubeObject).metadata !== undefined && (body as { kind?: string }).kind !== 'Status';
  if (!isApiObject) return body;
  const list = Array.isArray((body as KubeList).items) ? (body as KubeList) : undefined;
  switch (media.transform) {
    case 'Table':
      return toTable(h.def, body as KubeObject | KubeList, media.transformVersion, includeObjectParam(h));
    case 'PartialObjectMetadata':
      if (list) throw errors.notAcceptable('only the following media types are accepted: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1');
      return partialObjectMetadata(body as KubeObject, media.transformVersion);
    case 'PartialObjectMetadataList':
      if (!list) throw errors.notAcceptable('only the following media types are accepted: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
      return {
        kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${media.transformVersion}`,
        metadata: list.metadata, items: list.items.map((i) => partialObjectMetadata(i, media.transformVersion)),
      };
    default:
      return list && !h.def.customResource ? withoutItemTypeMeta(list) : body;
  }
}

/**
 * A built-in kind's list as upstream writes it: items without apiVersion and kind. Its
 * typed items lose their TypeMeta in the conversion to the served version, and nothing
 * sets it again (clients infer it from the list's kind); a custom resource's list is
 * unstructured, its items keep theirs, as do a PartialObjectMetadataList's (set one by one).
 * A shallow copy of each item, which carries the view's link to the watch cache's shared
 * object along: the encoders still write its cached bytes, encoded without the two members.
 */
function withoutItemTypeMeta(list: KubeList): KubeList {
  const items = new Array<KubeObject>(list.items.length);
  for (let i = 0; i < items.length; i++) {
    const { apiVersion: _a, kind: _k, ...item } = list.items[i]!;
    items[i] = item as KubeObject;
  }
  return { ...list, items };
}

export function serialize(media: MediaChoice, body: unknown): string | Buffer {
  if (media.format === 'protobuf') return encodeObject(body as Record<string, unknown>);
  // Upstream's YAML is its JSON converted: an object met twice (the watch cache's objects
  // share nested ones) is written twice, not as an anchor and its aliases.
  if (media.format === 'yaml') return stringify(body, { aliasDuplicateObjects: false });
  return `${goJson(body, media.pretty)}\n`;
}

export function writeObject(h: HandlerScope, code: number, body: KubeObject | KubeList | Record<string, unknown>): void {
  const media = chooseMedia(h);
  h.ctx.status = code;
  // Set as it is: Koa's ctx.type would add "; charset=utf-8", which upstream never sends.
  h.ctx.set('Content-Type', media.contentType);
  const out = transform(h, media, body);
  recordResponseObject(h.ctx, out);
  setApiBody(h.ctx, wholeBody(serialize(media, out)));
}

/**
 * An encoded body in one piece, compressed (when it is) a batch at a time. A string is
 * encoded once here: its size decides compression, and Koa, given the bytes, neither
 * measures nor encodes it again.
 */
function wholeBody(encoded: string | Buffer): ApiBody {
  const bytes = asBytes(encoded);
  return { length: bytes.length, plain: () => bytes, chunks: () => joinedBatches([bytes]) };
}

function asBytes(encoded: string | Buffer): Buffer {
  return typeof encoded === 'string' ? Buffer.from(encoded) : encoded;
}

/**
 * writeObject for a collection: a large one (list items, Table rows) is encoded a batch at
 * a time, yielding between batches, and sent as a stream the socket drains at its own pace
 * (Content-Length still declared unless compressed), so other requests run while it is
 * being written. `confirmed` (GenericStore.listPending): nothing is answered before it
 * resolves, its error instead when it rejects. `ready`: `body` encoded already (a page
 * read ahead), if it could be.
 */
export async function writeList(h: HandlerScope, code: number, body: KubeList, confirmed?: Promise<void | boolean>,
  ready?: Promise<EncodedList | undefined>): Promise<void> {
  let encoded = (await ready) ?? await encodeList(h, body);
  // Encoded while etcd was asked about the list (and joined, while it still answers);
  // nothing is answered before it says yes, and a list its answer changed (true:
  // refilled in place) is encoded again.
  if (confirmed) encoded = joinedList(encoded);
  if ((await confirmed) === true) encoded = await encodeList(h, body);
  sendList(h, code, encoded);
}

/** A collection response encoded for one negotiated representation, not yet sent. */
export interface EncodedList {
  media: MediaChoice;
  /** The body as transformed (what the audit log records). */
  out: unknown;
  field?: 'items' | 'rows';
  /** The body's bytes, when it was encoded a batch at a time. */
  chunks?: Buffer[];
}

/** writeList's first half: the body transformed and, when large, encoded a batch at a time. */
export async function encodeList(h: HandlerScope, body: KubeList): Promise<EncodedList> {
  const media = chooseMedia(h);
  const out = transform(h, media, body);
  const field = collectionField(out);
  let chunks: Buffer[] | undefined;
  if (field && media.format === 'json') {
    chunks = await encodeJsonCooperatively(out as Record<string, unknown>, field, media.pretty);
  } else if (field === 'items' && media.format === 'protobuf') {
    chunks = await encodeProtobufCooperatively(out as Record<string, unknown>);
  }
  return { media, out, field, chunks };
}

/**
 * The body's pieces (two per cached object) as one buffer, when it goes to the socket in
 * one turn anyway: joined while the client reads the page before (a page read ahead) or
 * while etcd answers about it, so the response writes once instead of a thousand times
 * through its write path on the way to its first byte (a loop of HTTPS responses of 500
 * such pieces: 0.17 ms of CPU each more than one buffer, 0.09 ms to join them).
 */
export function joinedList(enc: EncodedList): EncodedList {
  const pieces = enc.chunks;
  if (!pieces || pieces.length < 2) return enc;
  const size = totalBytes(pieces);
  return size > wholeWriteBytes ? enc : { ...enc, chunks: [joinPieces(pieces, size)] };
}

/** writeList's second half: answers the request with an encoded body. */
function sendList(h: HandlerScope, code: number, { media, out, field, chunks: encoded }: EncodedList): void {
  h.ctx.status = code;
  h.ctx.set('Content-Type', media.contentType);
  recordResponseObject(h.ctx, out);
  let chunks = encoded;
  if (!chunks) {
    const whole = serialize(media, out);
    if (!field) {
      setApiBody(h.ctx, wholeBody(whole));
      return;
    }
    chunks = [asBytes(whole)];
  }
  const pieces = chunks;
  setApiBody(h.ctx, {
    length: totalBytes(pieces),
    plain: () => new BatchedBody(pieces),
    chunks: () => joinedBatches(pieces),
  });
}

export function successStatus(h: HandlerScope, obj: KubeObject): Record<string, unknown> {
  return {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name: obj.metadata.name, group: h.def.group || undefined, kind: h.def.plural, uid: obj.metadata.uid },
  };
}
