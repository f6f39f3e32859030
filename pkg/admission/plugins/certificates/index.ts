// The three certificate plugins upstream enables by default.
import type { Authorizer } from '../../../authorization/interfaces.js';
import type { AdmissionPlugin } from '../../interfaces.js';
import { CertificateApproval } from './approval.js';
import { CertificateSigning } from './signing.js';
import { CertificateSubjectRestriction } from './subjectrestriction.js';

export { CertificateApproval, CertificateSigning, CertificateSubjectRestriction };

/** Without an authorizer (tests building a bare chain) only the subject restriction applies. */
export function certificatePlugins(authz: Authorizer | undefined): AdmissionPlugin[] {
  return [
    ...(authz ? [new CertificateApproval(authz), new CertificateSigning(authz)] : []),
    new CertificateSubjectRestriction(),
  ];
}
