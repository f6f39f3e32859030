// CertificateSubjectRestriction: no kube-apiserver-client request may ask for the
// system:masters group, which no authorizer can restrict.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { parseRequest, signerNameOf } from '../../../apis/certificates/csr.js';
import { kubeAPIServerClientSignerName } from '../../../apis/certificates/signers.js';
import { csrGroup, csrResource, forbidden, isCSR } from './signers.js';

export class CertificateSubjectRestriction implements AdmissionPlugin {
  readonly name = 'CertificateSubjectRestriction';
  readonly resources = new Set([`${csrGroup}/${csrResource}`]);

  handles(op: Operation): boolean {
    return op === 'CREATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || !isCSR(a) || !a.object) return;
    const signer = signerNameOf(a.object);
    if (signer !== kubeAPIServerClientSignerName) return;
    let organizations: string[];
    try {
      organizations = parseRequest(a.object).organizations;
    } catch (err) {
      throw forbidden(a, `failed to parse CSR: ${(err as Error).message}`);
    }
    if (organizations.includes('system:masters')) {
      throw forbidden(a, `use of ${signer} signer with system:masters group is not allowed`);
    }
  }
}
