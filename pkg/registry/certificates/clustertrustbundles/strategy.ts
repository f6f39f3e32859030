// ClusterTrustBundle: no status, nothing set by the server; the name rule depends on
// spec.signerName, so metadata is validated with the spec rather than by the base.
// Updates must carry a resourceVersion (upstream: AllowUnconditionalUpdate false).
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { validateClusterTrustBundle, validateClusterTrustBundleUpdate } from '../../../apis/certificates/clustertrustbundle.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class ClusterTrustBundleStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: false, nameValidator: () => [], allowUnconditionalUpdate: false, validateMetadata: false });
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateClusterTrustBundle(obj);
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    return validateClusterTrustBundleUpdate(obj, old);
  }
}
