// PersistentVolumeClaim quota: `persistentvolumeclaims`, `requests.storage`, their
// per-class forms `<class>.storageclass.storage.k8s.io/...`, and the object count.
// Updates are charged too: a claim can grow.
import type { Operation } from '../../admission/interfaces.js';
import { storageClassOf } from '../../apis/core/resources.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { Quantity } from '../../util/quantity/index.js';
import type { ResourceList } from '../resources.js';
import type { Evaluator } from './interfaces.js';
import { objectCountName } from './objectcount.js';

const pvcCount = objectCountName('', 'persistentvolumeclaims');
const pvcResources = [pvcCount, 'persistentvolumeclaims', 'requests.storage'];
export const storageClassSuffix = '.storageclass.storage.k8s.io/';

export class PersistentVolumeClaimEvaluator implements Evaluator {
  readonly group = '';
  readonly resource = 'persistentvolumeclaims';

  handles(operation: Operation, subresource: string): boolean {
    return subresource === '' && (operation === 'CREATE' || operation === 'UPDATE');
  }

  matchingResources(names: string[]): string[] {
    return names.filter((n) => pvcResources.includes(n) || (n.includes(storageClassSuffix)
      && (n.endsWith(`${storageClassSuffix}persistentvolumeclaims`) || n.endsWith(`${storageClassSuffix}requests.storage`))));
  }

  matchesScope(): boolean {
    return false;
  }

  usage(pvc: KubeObject): ResourceList {
    const one = Quantity.fromInt(1);
    const out: ResourceList = new Map([[pvcCount, one], ['persistentvolumeclaims', one]]);
    const cls = storageClassOf(pvc);
    if (cls) out.set(`${cls}${storageClassSuffix}persistentvolumeclaims`, one);
    const spec = isPlainObject(pvc.spec) ? pvc.spec : {};
    const requests = isPlainObject(spec.resources) && isPlainObject(spec.resources.requests) ? spec.resources.requests : {};
    const storage = Quantity.parse(requests.storage);
    if (storage) {
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${storageClassSuffix}requests.storage`, storage);
    }
    return out;
  }

  constraints(): undefined {
    return undefined;
  }
}
