// Decoding a create or update body under fieldValidation: JSON or YAML, type meta and
// type checks (which win over strict problems, as upstream), then unknown and
// duplicate fields reported per the directive, and unknown fields dropped.
import { errors } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { decodeBody, objectBodyMediaTypes } from '../negotiation/body.js';
import { protobufMediaType } from '../negotiation/media.js';
import {
  decodeYamlBody, documentUnknownFields, dropUnknownFields, floatLiterals, jsonBodyIssues, keysAppearOnce, reportDecodeIssues, sortedUnknownIssues,
  type FieldValidation, type StrictReport, typeRefOf,
} from '../fieldvalidation/index.js';
import { readRawBody, toKubeObject, type BodyType } from './decode.js';
import type { HandlerScope } from './scope.js';

/** `type`: the body's kind when it is not the resource's own (a subresource's Scale). */
export async function decodeStrictBody(h: HandlerScope, directive: FieldValidation, type?: BodyType): Promise<KubeObject> {
  const { raw, mediaType } = await readRawBody(h);
  return decodeStrict(h, directive, raw, mediaType, type);
}

/**
 * An update's body: its object, which the store may change (its first pass does), and
 * `again`, the same object decoded anew for a retried pass, its issues reported once.
 * A copy of the object for every update would cost each one a walk; retries are rare.
 */
export async function decodeStrictUpdateBody(h: HandlerScope, directive: FieldValidation): Promise<{ obj: KubeObject; again: () => KubeObject }> {
  const { raw, mediaType } = await readRawBody(h);
  const obj = decodeStrict(h, directive, raw, mediaType);
  // What the first decode dropped or reported decodes and drops the same way unreported.
  return { obj, again: () => decodeStrict(h, 'Ignore', raw, mediaType) };
}

function decodeStrict(h: HandlerScope, directive: FieldValidation, raw: Buffer, mediaType: string, type?: BodyType): KubeObject {
  if (!objectBodyMediaTypes.includes(mediaType)) throw errors.unsupportedMediaType(objectBodyMediaTypes.join(', '));
  const text = raw.toString('utf8');
  const t = typeRefOf(type ?? h.def);
  const report: StrictReport = { yamlLines: [], errors: [] };
  let obj: KubeObject;
  // A built-in kind's body found free of unknown fields has nothing to drop: the walk
  // that found none is the walk that would drop them (custom resources prune their own way).
  let nothingToDrop = false;
  // Unknown fields are looked for in the body as it was sent, before it is decoded: a
  // converting kind's round trip (autoscaling/v1's HorizontalPodAutoscaler) rebuilds the
  // object without them, where upstream's strict decoder meets them in the document.
  // Decoding adds only declared fields otherwise. A body that is no object: the decode refuses it.
  if (mediaType === 'application/yaml') {
    const body = decodeYamlBody(text);
    const unknown = directive !== 'Ignore' && isPlainObject(body.value) ? sortedUnknownIssues(t, body.value) : [];
    obj = toKubeObject(h.def, body.value, type);
    if (directive !== 'Ignore') {
      report.yamlLines = body.duplicateLines;
      report.errors = unknown;
    }
  } else {
    // Only a JSON body can write an integer as 3.0 (YAML's 3.0 converts to JSON's 3, as upstream's).
    const json = mediaType === 'application/json';
    const floats = json && !h.def.customResource ? () => floatLiterals(text) : undefined;
    const parsed = decodeBody(raw, mediaType, text);
    // Counted before the object is defaulted and its empty fields dropped.
    const noRepeats = json && directive !== 'Ignore' && keysAppearOnce(text, parsed);
    // Unknown protobuf fields are dropped by the decoder and reported by nobody, as upstream.
    const strict = directive !== 'Ignore' && mediaType !== protobufMediaType;
    const unknown = strict && isPlainObject(parsed) ? documentUnknownFields(t, parsed) : [];
    obj = toKubeObject(h.def, parsed, type, true, floats);
    if (strict) {
      report.errors = unknown.length === 0 && noRepeats ? [] : jsonBodyIssues(t, text, parsed, unknown);
      nothingToDrop = unknown.length === 0 && !t.pruning;
    }
  }
  reportDecodeIssues(h.ctx, directive, t, report);
  if (!nothingToDrop) dropUnknownFields(t, obj);
  return obj;
}

/** Upstream's checkName for updates, patches and applies. */
export function checkName(obj: KubeObject, name: string, namespace: string): void {
  const objName = obj.metadata.name ?? '';
  if (objName !== name) {
    throw errors.badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  }
  const objNamespace = obj.metadata.namespace ?? '';
  if (namespace && objNamespace && objNamespace !== namespace) {
    throw errors.badRequest(`the namespace of the object (${objNamespace}) does not match the namespace on the request (${namespace})`);
  }
}
