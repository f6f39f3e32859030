// CertificateApproval: approving or denying through /approval needs `approve` on the
// request's signer.
import type { Authorizer } from '../../../authorization/interfaces.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { signerNameOf } from '../../../apis/certificates/csr.js';
import { authorizedForSigner, csrGroup, csrResource, forbidden, isCSR } from './signers.js';

export class CertificateApproval implements AdmissionPlugin {
  readonly name = 'CertificateApproval';
  readonly resources = new Set([`${csrGroup}/${csrResource}`]);
  constructor(private readonly authz: Authorizer) {}

  handles(op: Operation): boolean {
    return op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== 'approval' || !isCSR(a) || !a.object) return;
    // The signer name is immutable, so the new object's is the one that counts.
    const signer = signerNameOf(a.object);
    if (!(await authorizedForSigner(this.authz, a.user, 'approve', signer))) {
      throw forbidden(a, `user not permitted to approve requests with signerName "${signer}"`);
    }
  }
}
