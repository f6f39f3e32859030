// `kubectl get csr`: NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION.
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';

/** Denied, else Approved, else Pending; then ",Failed" and ",Issued" (upstream: extractCSRStatus). */
export function csrCondition(obj: KubeObject): string {
  const status = isPlainObject(obj.status) ? obj.status : {};
  const types = new Set((Array.isArray(status.conditions) ? status.conditions : []).filter(isPlainObject).map((c) => c.type));
  let s = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) s += ',Failed';
  if (typeof status.certificate === 'string' && status.certificate.length > 0) s += ',Issued';
  return s;
}

export const csrTable: TableConvertor = {
  columns: [
    nameColumn(),
    ageColumn(),
    column('SignerName', 'string', 'Name of the signer.'),
    column('Requestor', 'string', 'Name of the user who created the CertificateSigningRequest.'),
    column('RequestedDuration', 'string', 'Requested duration of the certificate.'),
    column('Condition', 'string', 'Condition of the CertificateSigningRequest.'),
  ],
  cells: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const signer = typeof spec.signerName === 'string' && spec.signerName ? spec.signerName : '<none>';
    // HumanDuration of the requested seconds: an age measured from the epoch.
    const duration = typeof spec.expirationSeconds === 'number'
      ? humanAge(new Date(0).toISOString(), spec.expirationSeconds * 1000) : '<none>';
    return [obj.metadata.name ?? '', humanAge(obj.metadata.creationTimestamp), signer,
      typeof spec.username === 'string' ? spec.username : '', duration, csrCondition(obj)];
  },
};
