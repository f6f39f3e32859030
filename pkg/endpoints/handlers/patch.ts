// PATCH: the patch is applied to the current object inside the storage update loop, so
// a concurrent write makes it re-apply to the newer object (as upstream).
import { errors } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { applyPatch } from '../patch/index.js';
import { patchSchemaFor } from '../../openapi/patch-schema.js';
import { readRawBody, toKubeObject } from './decode.js';
import { parseDryRun } from './query.js';
import { writeObject } from './response.js';
import { requestScope, type HandlerScope } from './scope.js';

const patchTypes: Record<string, 'json' | 'merge' | 'strategic'> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

export const acceptedPatchTypes = [...Object.keys(patchTypes), 'application/apply-patch+yaml'];

export async function patchHandler(h: HandlerScope): Promise<void> {
  const dryRun = parseDryRun(h.query, 'PatchOptions');
  const { raw, mediaType } = await readRawBody(h);
  const patchType = patchTypes[mediaType];
  if (!patchType) {
    throw errors.unsupportedMediaType(acceptedPatchTypes.join(', '));
  }
  // The raw body goes to the patch algorithm so syntax errors carry upstream's wording.
  const patch = raw.toString('utf8');
  const schema = patchType === 'strategic' ? patchSchemaFor(h.def.group, h.def.version, h.def.kind) : undefined;
  const res = await h.store.update(h.info.namespace, h.info.name, async (current: KubeObject | null) => {
    if (!current) throw errors.notFound({ group: h.def.group, resource: h.def.plural }, h.info.name);
    const patched = applyPatch(patchType, current as Record<string, unknown>, patch, schema);
    return toKubeObject(h.def, patched);
  }, requestScope(h, dryRun));
  writeObject(h, 200, res.object);
}
