// Server-side apply: PATCH with application/apply-patch+yaml. The configuration is
// merged into the live object (or an empty one, creating it) by the resource's field
// manager, which owns conflicts, ownership and removal of dropped fields; repeated
// keys are reported per fieldValidation after the merge, as upstream orders it.
import { conversionProblemOf } from '../../openapi/convert-check.js';
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
    if (!h.def.customResource && !h.info.subresource) convertAppliedNumbers(h, merged, config);
    const obj = toKubeObject(h.def, merged);
    checkName(obj, h.info.name, h.def.namespaced ? h.info.namespace : '');
    return obj;
  }, scope, true);
  addWarnings(h.ctx, scope.warnings ?? []);
  writeObject(h, res.created ? 201 : 200, res.object);
}

/**
 * Upstream reads an applied configuration with sigs.k8s.io/yaml, whose numbers are all
 * float64, and converts the merged object into the kind (DefaultUnstructuredConverter): a
 * whole number the configuration sets in an integer field converts as Go converts a
 * float64, so past int64 (its max included, 2^63 as a float64) an int64 field is int64's
 * min, and an int32 field keeps the low 32 bits. What does not convert is refused by the
 * decode that follows, as before.
 */
function convertAppliedNumbers(h: HandlerScope, merged: KubeObject, config: Record<string, unknown>): void {
  conversionProblemOf(h.def.group, h.def.version, h.def.kind, merged, config, true);
}

function reportDuplicates(h: HandlerScope, directive: FieldValidation, lines: string[]): void {
  if (directive === 'Ignore' || lines.length === 0) return;
  if (directive === 'Strict') {
    throw errors.badRequest(`error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
  addWarnings(h.ctx, lines);
}
