// DELETE of one object. Options come from the body (DeleteOptions) or the query.
import { errors } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/object.js';
import type { DeleteOptions } from '../../registry/generic/store.js';
import { decodeBody, mediaTypeOf, readBody } from '../negotiation/body.js';
import { parseBool, parseDryRun, parseNonNegativeInt } from './query.js';
import { successStatus, writeObject } from './response.js';
import { requestScope, type HandlerScope } from './scope.js';

const propagationPolicies = ['Orphan', 'Background', 'Foreground'];

export async function readDeleteOptions(h: HandlerScope): Promise<{ options: DeleteOptions; dryRun: boolean }> {
  let dryRun = parseDryRun(h.query, 'DeleteOptions');
  const options: DeleteOptions = {};
  const grace = parseNonNegativeInt(h.query, 'gracePeriodSeconds');
  if (grace !== undefined) options.gracePeriodSeconds = grace;
  const policy = h.query.get('propagationPolicy');
  if (policy) options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  if (h.query.has('orphanDependents')) options.orphanDependents = parseBool(h.query, 'orphanDependents');
  const raw = await readBody(h.ctx.req);
  if (raw.length > 0) {
    const body = decodeBody(raw, mediaTypeOf(h.ctx.get('content-type')) || 'application/json');
    if (!isPlainObject(body)) throw errors.badRequest('DeleteOptions must be an object');
    if (body.kind !== undefined && body.kind !== 'DeleteOptions') {
      throw errors.badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (DeleteOptions)`);
    }
    if (isPlainObject(body.preconditions)) options.preconditions = body.preconditions as DeleteOptions['preconditions'];
    if (typeof body.gracePeriodSeconds === 'number') options.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') options.propagationPolicy = body.propagationPolicy as DeleteOptions['propagationPolicy'];
    if (typeof body.orphanDependents === 'boolean') options.orphanDependents = body.orphanDependents;
    if (Array.isArray(body.dryRun)) {
      const bad = body.dryRun.filter((v) => v !== 'All');
      if (bad.length > 0) {
        throw errors.invalid('meta.k8s.io', 'DeleteOptions', '', [{ type: 'FieldValueNotSupported', field: 'dryRun', value: body.dryRun, detail: 'supported values: "All"' }]);
      }
      dryRun = dryRun || body.dryRun.length > 0;
    }
  }
  const fieldErrors = [];
  if (options.propagationPolicy && !propagationPolicies.includes(options.propagationPolicy)) {
    fieldErrors.push({ type: 'FieldValueNotSupported' as const, field: 'propagationPolicy', value: options.propagationPolicy, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' });
  }
  if (options.propagationPolicy && options.orphanDependents !== undefined) {
    fieldErrors.push({ type: 'FieldValueInvalid' as const, field: 'propagationPolicy', value: options.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (options.gracePeriodSeconds !== undefined && options.gracePeriodSeconds < 0) {
    fieldErrors.push({ type: 'FieldValueInvalid' as const, field: 'gracePeriodSeconds', value: options.gracePeriodSeconds, detail: 'must be greater than or equal to 0' });
  }
  if (fieldErrors.length > 0) throw errors.invalid('meta.k8s.io', 'DeleteOptions', '', fieldErrors);
  return { options, dryRun };
}

export async function deleteHandler(h: HandlerScope): Promise<void> {
  const { options, dryRun } = await readDeleteOptions(h);
  const res = await h.store.delete(h.info.namespace, h.info.name, options, requestScope(h, dryRun));
  // An object left in place for its finalizers is answered with 202 and the object.
  if (!res.deleted) { writeObject(h, 202, res.object); return; }
  writeObject(h, 200, h.def.returnDeletedObject ? res.object : successStatus(h, res.object));
}
