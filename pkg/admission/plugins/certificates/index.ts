// The three certificate plugins upstream enables by default.
import { CertificateApproval } from './approval.js';
import { CertificateSigning } from './signing.js';
import { CertificateSubjectRestriction } from './subjectrestriction.js';

export { CertificateApproval, CertificateSigning, CertificateSubjectRestriction };
