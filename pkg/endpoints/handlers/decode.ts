// Turns a request body into an object of the endpoint's kind: parse, check type meta,
// apply defaults. Type errors against the schema are upstream's 400 decode failures.
import { errors } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { apiVersionOf } from '../../runtime/scheme.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import { mediaTypeOf, readBody } from '../negotiation/body.js';
import type { ChangedRegion } from '../../runtime/changed-region.js';
import { checkTypes } from '../../openapi/type-check.js';
import type { FloatLiteral } from '../../openapi/float-literals.js';
import { dropEmptyOmitted } from '../../runtime/serializer/protobuf/omit-empty.js';
import { canonicalizeDecodedForms } from '../../runtime/serializer/protobuf/decoded-forms.js';
import { recordRawRequestBody } from '../filters/audit-context.js';
import type { HandlerScope } from './scope.js';
import { summarizeBody, typeMetaDecodeError } from './type-meta.js';

export async function readRawBody(h: HandlerScope): Promise<{ raw: Buffer; mediaType: string }> {
  const raw = await readBody(h.ctx.req, h.ctx.state.maxRequestBodyBytes as number | undefined, h.ctx.res);
  const mediaType = mediaTypeOf(h.ctx.get('content-type')) || 'application/json';
  recordRawRequestBody(h.ctx, raw, mediaType);
  return { raw, mediaType };
}

/** The type a body must be: the endpoint's own kind, or a subresource's (TokenRequest). */
export interface BodyType { group: string; version: string; kind: string }

/**
 * `region`: where `body` may differ from an object of this kind that decoded (a merge
 * patch's keys on a stored object; see ChangedRegion): only there can its types fail or
 * an omitted field be empty. `floats`: the numbers the body's JSON wrote as floats (or how to find them).
 */
export function toKubeObject(def: ResourceDef, body: unknown, type?: BodyType, region: ChangedRegion = true,
  floats?: FloatLiteral[] | (() => FloatLiteral[])): KubeObject {
  const { group, version, kind } = type ?? def;
  if (!isPlainObject(body)) {
    throw errors.badRequest(`Object '${'Kind'}' is missing in '${truncate(JSON.stringify(body))}'`);
  }
  const typeMetaError = typeMetaDecodeError(body);
  if (typeMetaError) {
    throw errors.badRequest(`the object provided is unrecognized (must be of type ${kind}): ${typeMetaError} (${summarizeBody(JSON.stringify(body))})`);
  }
  const expectedVersion = apiVersionOf(group, version);
  const obj = body as KubeObject;
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== expectedVersion) {
    throw errors.badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expectedVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== kind) {
    throw errors.badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  if (obj.metadata !== undefined && obj.metadata !== null && !isPlainObject(obj.metadata)) {
    throw errors.badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: json: cannot unmarshal ${typeof obj.metadata === 'string' ? 'string' : 'array'} into Go struct field ${kind}.metadata of type v1.ObjectMeta`);
  }
  obj.metadata = (obj.metadata as KubeObject['metadata'] | null) ?? {};
  obj.apiVersion = expectedVersion;
  obj.kind = kind;
  const typeProblem = checkTypes(group, version, kind, obj, region, floats);
  if (typeProblem) throw typeProblem;
  if (!def.customResource) {
    dropEmptyOmitted(obj, expectedVersion, kind, region);
    canonicalizeDecodedForms(obj, expectedVersion, kind, region);
  }
  if (type && type.kind !== def.kind) return obj;
  def.strategy.applyDefaults(obj);
  if (!def.conversion) return obj;
  // Upstream decodes into its internal version and converts back: what that conversion
  // fills in (autoscaling/v1's implicit CPU target) is part of the object the field
  // manager and admission see.
  const roundTripped = def.conversion.fromStorage(def.conversion.toStorage(obj));
  return { ...roundTripped, apiVersion: expectedVersion, kind };
}

function truncate(s: string | undefined): string {
  const v = s ?? '';
  return v.length > 100 ? `${v.slice(0, 100)}...` : v;
}
