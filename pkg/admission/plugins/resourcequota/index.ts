// ResourceQuota admission: a namespaced create or update that would take a namespace
// past one of its ResourceQuotas is refused with 403, and an admitted one is charged
// to the quotas' status.used before it is persisted (evaluator.ts). The quota
// controller recomputes usage from the objects, which corrects charges for requests a
// later step refused.
import { EvaluatorRegistry } from '../../../quota/evaluator/registry.js';
import type { QuotaView } from '../../../quota/quota.js';
import { toJSONResourceList, type ResourceList } from '../../../quota/resources.js';
import { errors, StatusError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { internalScope } from '../../../registry/generic/internal-scope.js';
import { apiserverUser } from '../../../client/identities.js';
import type { GenericStore } from '../../../registry/generic/store.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { parseQuotaConfiguration, type LimitedResource } from './config.js';
import { QuotaEvaluator, type QuotaAccess } from './evaluator.js';

export { parseQuotaConfiguration };

export class ResourceQuota implements AdmissionPlugin {
  readonly name = 'ResourceQuota';
  private readonly registry = new EvaluatorRegistry();
  private readonly evaluator: QuotaEvaluator;

  constructor(access: QuotaAccess, limited: LimitedResource[] = []) {
    this.evaluator = new QuotaEvaluator(access, limited);
  }

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    // Subresources and cluster-scoped objects (namespaces among them) are not quota'd.
    if (a.subresource !== '' || a.namespace === '') return;
    if (this.registry.isIgnored(a.group, a.resource)) return;
    const e = this.registry.get(a.group, a.resource);
    if (!e.handles(a.operation, a.subresource)) return;
    await this.evaluator.evaluate(a, e);
  }
}

type QuotaStore = Pick<GenericStore, 'list' | 'update' | 'groupResource'>;

/** Quotas read from and charged through the resourcequotas store (status subresource). */
export function storeQuotaAccess(store: QuotaStore): QuotaAccess {
  const scope = internalScope(apiserverUser, 'kube-apiserver', { subresource: 'status' });
  return {
    list: async (namespace) => (await store.list(namespace, {})).items as KubeObject[],
    updateUsed: async (q: QuotaView, used: ResourceList) => {
      await store.update(q.namespace, q.name, async (current) => {
        if (!current || current.metadata.resourceVersion !== q.resourceVersion) {
          throw errors.conflict(store.groupResource, q.name, 'the object has been modified; please apply your changes to the latest version and try again');
        }
        const status = isPlainObject(current.status) ? current.status : {};
        return { ...current, status: { ...status, used: toJSONResourceList(used) } };
      }, scope).catch((err) => {
        if (err instanceof StatusError && err.code === 404) {
          throw errors.conflict(store.groupResource, q.name, 'the object has been deleted');
        }
        throw err;
      });
    },
  };
}
