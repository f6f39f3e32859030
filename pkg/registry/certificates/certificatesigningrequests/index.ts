// certificates.k8s.io/v1 certificatesigningrequests with /status and /approval.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { isPlainObject } from '../../../runtime/object.js';
import { CSRStrategy } from './strategy.js';
import { csrTable } from './table.js';
import { fieldLabels } from '../../../apis/meta/fields.js';

export const certificatesigningrequests: ResourceDef = {
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  shortNames: ['csr'],
  namespaced: false,
  verbs: [...allVerbs],
  subresources: [
    { name: 'approval', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] },
    { name: 'status', kind: 'CertificateSigningRequest', verbs: ['get', 'patch', 'update'] },
  ],
  strategy: new CSRStrategy(),
  table: csrTable,
  fieldLabels: fieldLabels(['metadata.name', 'spec.signerName']),
  selectableFields: (obj) => {
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    return { 'spec.signerName': typeof spec.signerName === 'string' ? spec.signerName : '' };
  },
};
