// ResourceQuota admission: a namespaced create or update that would take a namespace
// past one of its ResourceQuotas is refused with 403, and an admitted one is charged
// to the quotas' status.used before it is persisted (evaluator.ts). The quota
// controller recomputes usage from the objects, which corrects charges for requests a
// later step refused.
import { EvaluatorRegistry } from '../../../quota/evaluator/registry.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { parseQuotaConfiguration, type LimitedResource } from './config.js';
import { QuotaEvaluator, type QuotaAccess } from './evaluator.js';

export { parseQuotaConfiguration };
export { quotaAccess } from './access.js';

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

  validate(a: AdmissionAttributes): Promise<void> | void {
    // Subresources and cluster-scoped objects (namespaces among them) are not quota'd.
    if (a.subresource !== '' || a.namespace === '') return;
    if (this.registry.isIgnored(a.group, a.resource)) return;
    const e = this.registry.get(a.group, a.resource);
    if (!e.handles(a.operation, a.subresource)) return;
    // The common case, a namespace without quotas, answered without a promise.
    if (this.evaluator.nothingToCharge(a.namespace)) return;
    return this.evaluator.evaluate(a, e);
  }
}
