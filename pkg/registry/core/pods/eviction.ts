// pods/eviction (policy/v1 and v1beta1 Eviction bodies): delete a pod unless a
// PodDisruptionBudget forbids it (upstream: EvictionREST). A budget that allows it
// has status.disruptionsAllowed decremented and the pod recorded in disruptedPods.
import { StatusError, errors } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { VirtualContext, VirtualCreate } from '../../rest/resource.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../../apis/meta/labels.js';
import { obj, str, type Obj } from '../../../apis/core/types.js';
import { AdmissionChain, type AdmissionAttributes } from '../../../admission/interfaces.js';
import type { DeleteOptions } from '../../generic/deletion.js';
import type { RequestScope } from '../../generic/store.js';
import { nowTimestamp } from '../../generic/names.js';

const violationMessage = "Cannot evict pod as it would violate the pod's disruption budget.";
/** Upstream's MaxDisruptedPodSize. */
const maxDisruptedPods = 2000;

function budgetError(cause: string): StatusError {
  return new StatusError(429, 'TooManyRequests', violationMessage, { causes: [{ reason: 'DisruptionBudget', message: cause }] });
}

export const evictionCreate: VirtualCreate = async (eviction, ctx) => {
  const name = ctx.name;
  if (eviction.metadata.name && eviction.metadata.name !== name) {
    throw errors.badRequest('name in URL does not match name in Eviction object');
  }
  const pods = ctx.stores?.('', 'pods');
  if (!pods) throw errors.notFound({ group: '', resource: 'pods' }, name);
  const pod = await pods.get(ctx.namespace, name);
  const scope: RequestScope = { user: ctx.user, dryRun: ctx.dryRun, admission: ctx.admission ?? new AdmissionChain() };
  // The eviction is admitted as a create of pods/eviction before the delete it makes; the
  // pod travels as oldObject so plugins judge the pod being evicted.
  const attrs: AdmissionAttributes = {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Eviction', resource: 'pods', subresource: 'eviction',
    namespace: ctx.namespace, name, object: eviction, oldObject: pod, user: ctx.user, dryRun: ctx.dryRun,
  };
  await scope.admission.admit(attrs);
  await scope.admission.validate(attrs);
  const deleteOptions = (obj(eviction.deleteOptions) ?? {}) as DeleteOptions;
  const remove = async () => {
    await pods.delete(ctx.namespace, name, deleteOptions, scope);
    return success();
  };
  const phase = str(obj(pod.status)?.phase);
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp) return remove();
  const budgets = await matchingBudgets(ctx, pod);
  if (budgets.length > 1) {
    throw new StatusError(500, 'InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  }
  if (budgets.length === 1) await takeDisruption(ctx, budgets[0]!, name, scope);
  return remove();
};

function success(): KubeObject {
  return { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Success', code: 201 };
}

async function matchingBudgets(ctx: VirtualContext, pod: KubeObject): Promise<KubeObject[]> {
  const store = ctx.stores?.('policy', 'poddisruptionbudgets');
  if (!store || !pod.metadata.labels || Object.keys(pod.metadata.labels).length === 0) return [];
  const list = await store.list(ctx.namespace, {});
  return list.items.filter((pdb) => {
    const sel = obj(obj(pdb.spec)?.selector);
    // policy/v1: an empty selector matches every pod, a missing one none.
    if (!sel) return false;
    return labelSelectorFromObject(sel as LabelSelectorObject).matches(pod.metadata.labels);
  });
}

async function takeDisruption(ctx: VirtualContext, pdb: KubeObject, podName: string, scope: RequestScope): Promise<void> {
  const store = ctx.stores!('policy', 'poddisruptionbudgets')!;
  await store.update(ctx.namespace, pdb.metadata.name ?? '', async (current) => {
    if (!current) throw errors.notFound({ group: 'policy', resource: 'poddisruptionbudgets' }, pdb.metadata.name ?? '');
    const status = (obj(current.status) ?? {}) as Obj;
    const observed = typeof status.observedGeneration === 'number' ? status.observedGeneration : 0;
    if (observed < (current.metadata.generation ?? 0)) {
      throw budgetError(`The disruption budget ${current.metadata.name} is still being processed by the server.`);
    }
    const allowed = typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0;
    if (allowed < 0) throw errors.forbidden({ group: '', resource: 'pods' }, podName, 'pdb disruptions allowed is negative');
    const disrupted = (obj(status.disruptedPods) ?? {}) as Obj;
    if (Object.keys(disrupted).length > maxDisruptedPods) {
      throw errors.forbidden({ group: '', resource: 'pods' }, podName, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
    }
    if (allowed === 0) {
      throw budgetError(`The disruption budget ${current.metadata.name} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`);
    }
    const next = structuredClone(current);
    next.status = { ...status, disruptionsAllowed: allowed - 1, disruptedPods: { ...disrupted, [podName]: nowTimestamp() } };
    return next;
  }, { ...scope, subresource: 'status' });
}
