// PATCH: the patch is applied to the current object inside the storage update loop, so
// a concurrent write makes it re-apply to the newer object (as upstream). Server-side
// apply (application/apply-patch+yaml) goes to apply.ts.
import { errors } from '../../runtime/errors.js';
import { ownedResults } from '../../registry/generic/store-interfaces.js';
import type { KubeObject } from '../../runtime/object.js';
import { applyMergePatch, applyPatch, decodeMergePatch } from '../../apis/meta/patch/index.js';
import type { ChangedRegion } from '../../runtime/changed-region.js';
import { patchSchemaFor } from '../../openapi/patch-schema.js';
import {
  addWarnings, dropUnknownFields, goValueString, jsonDuplicateIssues, jsonPatchOperationIssues, reportPatchIssues,
  sortedCopy, sortedUnknownIssues, type FieldValidation, type StrictReport, type TypeRef, typeRefOf,
} from '../fieldvalidation/index.js';
import { applyHandler } from './apply.js';
import { patchedDecodeCheck } from './patched-decode.js';
import { readRawBody, toKubeObject } from './decode.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { checkName } from './strict-decode.js';
import { parseWriteOptions, writeScope } from './write-options.js';

const patchTypes: Record<string, 'json' | 'merge' | 'strategic'> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

const applyPatchType = 'application/apply-patch+yaml';

export const acceptedPatchTypes = [...Object.keys(patchTypes), applyPatchType];

export async function patchHandler(h: HandlerScope): Promise<void> {
  const { raw, mediaType } = await readRawBody(h);
  const patchType = patchTypes[mediaType];
  // Custom resources have no Go struct to carry strategic merge keys (upstream answers 415).
  const accepted = h.def.customResource ? acceptedPatchTypes.filter((t) => patchTypes[t] !== 'strategic') : acceptedPatchTypes;
  if (!accepted.includes(mediaType)) throw errors.unsupportedMediaType(accepted.join(', '));
  const opts = parseWriteOptions(h.query, 'PatchOptions', { apply: mediaType === applyPatchType });
  if (!patchType) return applyHandler(h, opts, raw);
  // The raw body goes to the patch algorithm so syntax errors carry upstream's wording.
  const patch = raw.toString('utf8');
  const schema = patchType === 'strategic' ? patchSchemaFor(h.def.group, h.def.version, h.def.kind) : undefined;
  const t = typeRefOf(h.def);
  const scope = writeScope(h, opts);
  // A merge patch changes only what its keys name: on a built-in kind, whose stored
  // objects decode with no unknown field and no type error, only that region is checked.
  const byRegion = patchType === 'merge' && !h.def.customResource && !h.def.conversion;
  let mergePatch: unknown;
  const checkDecodes = patchedDecodeCheck(h.def, patchType, patch, { literals: !h.def.customResource, strategicByKeys: !h.def.conversion });
  const patchCurrent = (current: KubeObject | null): KubeObject => {
    if (!current) throw errors.notFound({ group: h.def.group, resource: h.def.plural }, h.info.name);
    let patched: Record<string, unknown>;
    let region: ChangedRegion = true;
    if (patchType === 'merge') {
      // Decoded once for every pass; a syntax error is still this pass's error, after not found.
      mergePatch ??= decodeMergePatch(patch);
      patched = applyMergePatch(current as Record<string, unknown>, mergePatch);
      if (byRegion) region = mergePatch as Record<string, unknown>;
    } else {
      patched = applyPatch(patchType, current as Record<string, unknown>, patch, schema);
    }
    checkDecodes(current as Record<string, unknown>, patched, region);
    const unknownSeen = checkPatchedFields(h, opts.fieldValidation, patchType, patch, patched, t, region);
    const obj = toKubeObject(h.def, patched, undefined, region);
    // The strict walk found nothing to drop (nearly always); a built-in kind's decode adds
    // only declared fields unless a conversion round trip rebuilds the object.
    if (unknownSeen !== false || t.pruning || h.def.conversion) dropUnknownFields(t, obj);
    checkName(obj, h.info.name, h.def.namespaced ? h.info.namespace : '');
    return obj;
  };
  // A merge or JSON patch result is built on a deep copy of the current object, and takes
  // copies of the patch's values: the store's own, not copied again. (A strategic merge
  // may place one value of the patch at more than one place.)
  const res = await h.store.update(h.info.namespace, h.info.name,
    patchType === 'strategic' ? patchCurrent : ownedResults(patchCurrent), scope);
  addWarnings(h.ctx, scope.warnings ?? []);
  writeObject(h, 200, res.object);
}

/**
 * Strict problems of a patch: repeated keys in the patch body (for JSON patch, also
 * unknown keys of its operations), then unknown fields of the patched object.
 * Returns whether the patched object has unknown fields; undefined when not looked for.
 */
function checkPatchedFields(h: HandlerScope, directive: FieldValidation, patchType: 'json' | 'merge' | 'strategic',
  patch: string, patched: Record<string, unknown>, t: TypeRef, region: ChangedRegion): boolean | undefined {
  if (directive === 'Ignore') return undefined;
  // A merge patch that applied has parsed; the others' bodies are parsed for their checks.
  let body: unknown;
  if (patchType !== 'merge') {
    try {
      body = JSON.parse(patch);
    } catch {
      body = undefined;
    }
  }
  const parsed = patchType === 'merge' || body !== undefined;
  const before = !parsed ? [] : patchType === 'json' ? jsonPatchOperationIssues(patch, body) : jsonDuplicateIssues(patch);
  const unknown = sortedUnknownIssues(t, patched, region);
  const report: StrictReport = { yamlLines: [], errors: [...before, ...unknown] };
  // Every patch is checked; only a failed Strict one shows the object, sorted and encoded.
  const shown = (): string => (patchType === 'strategic' ? goValueString(body) : JSON.stringify(sortedCopy(patched)));
  reportPatchIssues(h.ctx, directive, report, shown);
  return unknown.length > 0;
}
