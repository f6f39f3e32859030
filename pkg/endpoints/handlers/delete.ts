// DELETE of one object. DeleteOptions come from the body; query parameters fill in what
// the body leaves unset (upstream reads the query only without a body; honouring it
// besides a body keeps ?dryRun=All from ever writing). Validated as upstream's
// ValidateDeleteOptions.
import { recordRequestObject } from '../filters/audit-context.js';
import { errors, type FieldError } from '../../runtime/errors.js';
import { isPlainObject } from '../../runtime/object.js';
import type { DeleteOptions } from '../../registry/generic/store.js';
import { decodeBody, mediaTypeOf, readBody } from '../negotiation/body.js';
import { typeMetaDecodeError } from './type-meta.js';
import { successStatus, writeObject } from './response.js';
import { requestScope, type HandlerScope } from './scope.js';
import { dryRunNotSupported } from './write-options.js';

const propagationPolicies = ['Foreground', 'Background', 'Orphan'];

/** Query bools are true unless "0" or "false" (upstream's parameter conversion). */
function queryBool(v: string): boolean {
  return v !== '0' && v.toLowerCase() !== 'false';
}

export async function readDeleteOptions(h: HandlerScope): Promise<{ options: DeleteOptions; dryRun: boolean }> {
  const options: DeleteOptions = {};
  let dryRun: unknown[] = [];
  const raw = await readBody(h.ctx.req, h.ctx.state.maxRequestBodyBytes as number | undefined, h.ctx.res);
  if (raw.length > 0) {
    const body = decodeBody(raw, mediaTypeOf(h.ctx.get('content-type')) || 'application/json');
    if (!isPlainObject(body)) throw errors.badRequest('DeleteOptions must be an object');
    recordRequestObject(h.ctx, body);
    // (Upstream passes this decode error on unwrapped, a 500 Unknown; the client's body is at
    // fault, so it is a 400 here, as for a create.)
    const typeMetaError = typeMetaDecodeError(body);
    if (typeMetaError) throw errors.badRequest(typeMetaError);
    if (body.kind !== undefined && body.kind !== null && body.kind !== '' && body.kind !== 'DeleteOptions') {
      throw errors.badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (DeleteOptions)`);
    }
    if (isPlainObject(body.preconditions)) {
      const p = body.preconditions;
      options.preconditions = {};
      if (typeof p.uid === 'string') options.preconditions.uid = p.uid;
      if (typeof p.resourceVersion === 'string') options.preconditions.resourceVersion = p.resourceVersion;
    }
    if (typeof body.gracePeriodSeconds === 'number') options.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') options.propagationPolicy = body.propagationPolicy as DeleteOptions['propagationPolicy'];
    if (typeof body.orphanDependents === 'boolean') options.orphanDependents = body.orphanDependents;
    if (Array.isArray(body.dryRun)) dryRun = body.dryRun;
  }
  {
    const grace = h.query.get('gracePeriodSeconds');
    if (grace !== null && grace !== '' && options.gracePeriodSeconds === undefined) {
      if (!/^-?\d+$/.test(grace)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(grace)}: invalid syntax`);
      options.gracePeriodSeconds = Number(grace);
    }
    const policy = h.query.get('propagationPolicy');
    if (policy !== null && policy !== '' && options.propagationPolicy === undefined) options.propagationPolicy = policy as DeleteOptions['propagationPolicy'];
    const orphan = h.query.get('orphanDependents');
    if (orphan !== null && options.orphanDependents === undefined) options.orphanDependents = queryBool(orphan);
    if (dryRun.length === 0) dryRun = h.query.getAll('dryRun');
  }
  const errs: FieldError[] = [];
  if (options.orphanDependents !== undefined && options.propagationPolicy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', value: options.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (options.propagationPolicy !== undefined && !propagationPolicies.includes(options.propagationPolicy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: options.propagationPolicy, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' });
  }
  if (dryRun.some((v) => v !== 'All')) errs.push(dryRunNotSupported(dryRun));
  if (errs.length > 0) throw errors.invalid('meta.k8s.io', 'DeleteOptions', '', errs);
  return { options, dryRun: dryRun.length > 0 };
}

export async function deleteHandler(h: HandlerScope): Promise<void> {
  const { options, dryRun } = await readDeleteOptions(h);
  const res = await h.store.delete(h.info.namespace, h.info.name, options, requestScope(h, dryRun));
  // 202 only where upstream keeps it for old clients: cascading asked with orphanDependents=false.
  const code = !res.deleted && options.orphanDependents === false ? 202 : 200;
  // An object left in place (finalizers, namespace termination) is answered with itself.
  if (!res.deleted) { writeObject(h, code, res.object); return; }
  writeObject(h, code, h.def.returnDeletedObject ? res.object : successStatus(h, res.object));
}
