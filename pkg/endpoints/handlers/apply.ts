// Server-side apply: PATCH with application/apply-patch+yaml. The configuration is
// merged into the live object (or an empty one, creating it) by the resource's field
// manager, which owns conflicts, ownership and removal of dropped fields; repeated
// keys are reported per fieldValidation after the merge, as upstream orders it.
import { errors } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { addWarnings, decodeYamlBody, type FieldValidation } from '../fieldvalidation/index.js';
import { toKubeObject } from './decode.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { checkName } from './strict-decode.js';
import { writeScope, type WriteOptions } from './write-options.js';

export async function applyHandler(h: HandlerScope, opts: WriteOptions, raw: Buffer): Promise<void> {
  const body = decodeYamlBody(raw.toString('utf8'), 'error decoding YAML: ');
  if (!isPlainObject(body.value)) {
    const what = Array.isArray(body.value) ? 'array' : body.value === null ? 'null' : typeof body.value;
    throw errors.badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go value of type map[string]interface {}`);
  }
  const config = body.value;
  const fm = h.store.fieldManager(h.info.subresource);
  const scope = { ...writeScope(h, opts), fieldManager: opts.fieldManager, managedFieldsRecorded: true };
  const res = await h.store.update(h.info.namespace, h.info.name, async (current: KubeObject | null) => {
    const merged = fm.apply(current, config, opts.fieldManager, opts.force);
    reportDuplicates(h, opts.fieldValidation, body.duplicateLines);
    if (!current && merged.metadata.uid) {
      throw errors.conflict({ group: h.def.group, resource: h.def.plural }, h.info.name,
        `uid mismatch: the provided object specified uid ${merged.metadata.uid}, and no existing object was found`);
    }
    const obj = toKubeObject(h.def, merged);
    checkName(obj, h.info.name, h.def.namespaced ? h.info.namespace : '');
    return obj;
  }, scope, true);
  addWarnings(h.ctx, scope.warnings ?? []);
  writeObject(h, res.created ? 201 : 200, res.object);
}

function reportDuplicates(h: HandlerScope, directive: FieldValidation, lines: string[]): void {
  if (directive === 'Ignore' || lines.length === 0) return;
  if (directive === 'Strict') {
    throw errors.badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
  addWarnings(h.ctx, lines);
}
