// The scale subresource of every kind that declares one (deployments, replicasets,
// statefulsets, replicationcontrollers): an autoscaling/v1 Scale computed from the
// parent's replica and selector fields, and written back as the parent's spec replicas
// through the parent's own store and strategy (so generation and validation follow).
import { errors } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import type { ResourceDef, ScaleDef } from '../../registry/rest/resource.js';
import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelectorObject } from '../../apis/meta/labels.js';
import { applyPatch } from '../../apis/meta/patch/index.js';
import { patchSchemaFor } from '../../openapi/patch-schema.js';
import { readRawBody, toKubeObject, type BodyType } from './decode.js';
import { checkName, decodeStrictBody } from './strict-decode.js';
import { writeObject } from './response.js';
import type { HandlerScope } from './scope.js';
import { parseWriteOptions, writeScope } from './write-options.js';
import { acceptedPatchTypes } from './patch.js';
import { patchedDecodeCheck } from './patched-decode.js';

export const scaleType: BodyType = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

const patchTypes: Record<string, 'json' | 'merge' | 'strategic'> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};

function at(obj: unknown, path: string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

function setAt(obj: Record<string, unknown>, path: string[], v: unknown): void {
  let cur = obj;
  for (const p of path.slice(0, -1)) {
    if (!isPlainObject(cur[p])) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[path[path.length - 1]!] = v;
}

/** The selector as a string: a LabelSelector object, a plain label map (ReplicationController), or a string. */
function selectorString(sel: unknown): string {
  if (typeof sel === 'string') return sel;
  if (!isPlainObject(sel)) return '';
  const o = sel as Record<string, unknown>;
  if ('matchLabels' in o || 'matchExpressions' in o) return labelSelectorFromObject(o as LabelSelectorObject).toString();
  return labelSelectorFromSet(o as Record<string, string>).toString();
}

export function toScale(parent: KubeObject, s: ScaleDef): KubeObject {
  const m = parent.metadata;
  const meta: KubeObject['metadata'] = { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp };
  const replicas = at(parent, s.specReplicasPath);
  const observed = at(parent, s.statusReplicasPath);
  return {
    apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: meta,
    spec: typeof replicas === 'number' ? { replicas } : {},
    status: { replicas: typeof observed === 'number' ? observed : 0, selector: s.selectorPath ? selectorString(at(parent, s.selectorPath)) : '' },
  };
}

function scaleDef(def: ResourceDef): ResourceDef {
  return { ...def, ...scaleType };
}

export function scaleHandler(s: ScaleDef): (h: HandlerScope) => Promise<void> {
  return async (h) => {
    const verb = h.info.verb;
    if (verb === 'get') {
      const parent = await h.store.get(h.info.namespace, h.info.name);
      return writeObject(h, 200, toScale(parent, s));
    }
    let desired: (current: KubeObject) => KubeObject;
    let opts;
    if (verb === 'update') {
      opts = parseWriteOptions(h.query, 'UpdateOptions');
      const body = await decodeStrictBody(h, opts.fieldValidation, scaleType);
      checkName(body, h.info.name, h.info.namespace);
      desired = () => body;
    } else if (verb === 'patch') {
      const { raw, mediaType } = await readRawBody(h);
      const patchType = patchTypes[mediaType];
      if (!patchType) throw errors.unsupportedMediaType(acceptedPatchTypes.join(', '));
      opts = parseWriteOptions(h.query, 'PatchOptions');
      const schema = patchType === 'strategic' ? patchSchemaFor(scaleType.group, scaleType.version, scaleType.kind) : undefined;
      const patch = raw.toString('utf8');
      // A Scale is decoded and converted as any kind is: a float in spec.replicas is refused the same way.
      const checkDecodes = patchedDecodeCheck(scaleType, patchType, patch, { literals: true, strategicByKeys: false });
      desired = (current) => {
        const patched = applyPatch(patchType, current as Record<string, unknown>, patch, schema);
        checkDecodes(current as Record<string, unknown>, patched, true);
        return toKubeObject(scaleDef(h.def), patched, scaleType);
      };
    } else {
      throw errors.methodNotAllowed({ group: h.def.group, resource: `${h.def.plural}/scale` }, verb);
    }
    const scope = writeScope(h, opts);
    const name = h.info.name;
    const res = await h.store.update(h.info.namespace, name, async (current) => {
      if (!current) throw errors.notFound(h.store.groupResource, name);
      const scale = desired(toScale(current, s));
      if (scale.metadata.name && scale.metadata.name !== name) {
        throw errors.badRequest('the name of the object does not match the name on the URL');
      }
      const replicas = isPlainObject(scale.spec) ? (scale.spec as Record<string, unknown>).replicas : undefined;
      const n = typeof replicas === 'number' ? replicas : 0;
      if (n < 0) {
        throw errors.invalid(scaleType.group, scaleType.kind, name, [
          { type: 'FieldValueInvalid', field: 'spec.replicas', value: n, detail: 'must be greater than or equal to 0' },
        ]);
      }
      const next = structuredClone(current);
      // A Scale carrying a resourceVersion is a precondition on the parent.
      if (scale.metadata.resourceVersion) next.metadata.resourceVersion = scale.metadata.resourceVersion;
      if (scale.metadata.uid) next.metadata.uid = scale.metadata.uid;
      setAt(next as Record<string, unknown>, s.specReplicasPath, n);
      return next;
    }, scope);
    writeObject(h, 200, toScale(res.object, s));
  };
}
