// CertificateSigning: changing status.certificate or the conditions through /status
// needs `sign` on the request's signer.
import { isDeepStrictEqual } from 'node:util';
import type { Authorizer } from '../../../authorization/interfaces.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { conditionsOf, signerNameOf, statusOf } from '../../../apis/certificates/csr.js';
import { authorizedForSigner, csrGroup, csrResource, forbidden, isCSR } from './signers.js';

export class CertificateSigning implements AdmissionPlugin {
  readonly name = 'CertificateSigning';
  readonly resources = new Set([`${csrGroup}/${csrResource}`]);
  constructor(private readonly authz: Authorizer) {}

  handles(op: Operation): boolean {
    return op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== 'status' || !isCSR(a) || !a.object || !a.oldObject) return;
    const sameCert = (statusOf(a.object).certificate ?? '') === (statusOf(a.oldObject).certificate ?? '');
    if (sameCert && isDeepStrictEqual(conditionsOf(a.object), conditionsOf(a.oldObject))) return;
    const signer = signerNameOf(a.oldObject);
    if (!(await authorizedForSigner(this.authz, a.user, 'sign', signer))) {
      throw forbidden(a, `user not permitted to sign requests with signerName "${signer}"`);
    }
  }
}
