// The certificate plugins upstream enables by default.
import { CertificateApproval } from './approval.js';
import { CertificateSigning } from './signing.js';
import { CertificateSubjectRestriction } from './subjectrestriction.js';
import { ClusterTrustBundleAttest } from './ctbattest.js';

export { CertificateApproval, CertificateSigning, CertificateSubjectRestriction, ClusterTrustBundleAttest };
