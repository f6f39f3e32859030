// pods/binding and the legacy namespaced `bindings` resource: assign a pending pod to a
// node once (upstream: BindingREST / assignPod). The pod is updated in storage with
// spec.nodeName, the binding's annotations and a PodScheduled=True condition.
import { errors, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { VirtualContext, VirtualCreate } from '../../rest/resource.js';
import { notSupported, required } from '../../../apis/validation/field.js';
import { obj, str, type Obj } from '../../../apis/core/types.js';
import { nowTimestamp } from '../../generic/names.js';
import { AdmissionChain } from '../../../admission/interfaces.js';

const bindingResource = { group: '', resource: 'pods/binding' };

export function validateBinding(b: KubeObject): FieldError[] {
  const target = obj(b.target) ?? {};
  const errs: FieldError[] = [];
  const kind = str(target.kind);
  if (kind && kind !== 'Node') errs.push(notSupported('target.kind', kind, ['Node', '<empty>']));
  if (!str(target.name)) errs.push(required('target.name'));
  return errs;
}

/** Binds through the pods store; `fromURL` when the pod's name is the URL's (pods/<name>/binding). */
export function bindingCreate(fromURL: boolean): VirtualCreate {
  return async (b, ctx) => {
    const name = fromURL ? ctx.name : (b.metadata.name ?? '');
    if (fromURL && b.metadata.name && b.metadata.name !== ctx.name) {
      throw errors.badRequest('name in URL does not match name in Binding object');
    }
    const errs = validateBinding(b);
    if (errs.length > 0) throw errors.invalid('', 'Binding', name, errs);
    await bindPod(ctx, name, str(obj(b.target)?.name), b.metadata.annotations);
    return { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Success', code: 201 };
  };
}

async function bindPod(ctx: VirtualContext, name: string, node: string, annotations: Record<string, string> | undefined): Promise<void> {
  const store = ctx.stores?.('', 'pods');
  if (!store) throw errors.notFound({ group: '', resource: 'pods' }, name);
  await store.update(ctx.namespace, name, async (current) => {
    if (!current) throw errors.notFound({ group: '', resource: 'pods' }, name);
    if (current.metadata.deletionTimestamp) {
      throw errors.conflict(bindingResource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    }
    const spec = obj(current.spec) ?? {};
    if (str(spec.nodeName)) {
      throw errors.conflict(bindingResource, name, `pod ${name} is already assigned to node "${str(spec.nodeName)}"`);
    }
    // New containers on the path to each change only: the update deep-copies what this
    // returns before anything writes to it (a structuredClone of the pod here was 7% of
    // the replicas' update path in the cluster load).
    const pod: KubeObject = { ...current, spec: { ...spec, nodeName: node } };
    if (annotations && Object.keys(annotations).length > 0) {
      pod.metadata = { ...current.metadata, annotations: { ...(current.metadata.annotations ?? {}), ...annotations } };
    }
    const status = obj(current.status) ?? {};
    const conditions = Array.isArray(status.conditions) ? (status.conditions as Obj[]).filter((c) => c.type !== 'PodScheduled') : [];
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: nowTimestamp() });
    pod.status = { ...status, conditions };
    return pod;
  }, { user: ctx.user, dryRun: ctx.dryRun, admission: ctx.admission ?? new AdmissionChain(), subresource: 'binding' });
}
