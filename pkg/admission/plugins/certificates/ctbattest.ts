// ClusterTrustBundleAttest: creating or updating a ClusterTrustBundle that names a signer
// needs `attest` on that signer (or its domain wildcard). The new object's signer is the
// one checked: validation already refuses a change of signer. Inactive without the
// ClusterTrustBundle feature gate, as upstream's.
import type { Authorizer } from '../../../authorization/interfaces.js';
import { isPlainObject } from '../../../runtime/object.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { authorizedForSigner, csrGroup, forbidden } from './signers.js';

export class ClusterTrustBundleAttest implements AdmissionPlugin {
  readonly name = 'ClusterTrustBundleAttest';
  readonly resources = new Set([`${csrGroup}/clustertrustbundles`]);
  constructor(private readonly authz: Authorizer, private readonly enabled: boolean) {}

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!this.enabled || a.group !== csrGroup || a.resource !== 'clustertrustbundles' || !a.object) return;
    const spec = isPlainObject(a.object.spec) ? a.object.spec : {};
    const signer = typeof spec.signerName === 'string' ? spec.signerName : '';
    if (signer === '') return;
    if (!(await authorizedForSigner(this.authz, a.user, 'attest', signer))) {
      throw forbidden(a, `user not permitted to attest for signerName "${signer}"`);
    }
  }
}
