// `kubectl get clustertrustbundles`: NAME SIGNERNAME (upstream prints no age column).
import { bundleSpec } from '../../../apis/certificates/clustertrustbundle.js';
import { column, nameColumn, type TableConvertor } from '../../../runtime/table.js';

// The column's description is the API field's documentation, as upstream's printer uses.
const signerNameDoc = 'signerName indicates the associated signer, if any.\n\n'
  + 'In order to create or update a ClusterTrustBundle that sets signerName, you must have the following cluster-scoped '
  + 'permission: group=certificates.k8s.io resource=signers resourceName=<the signer name> verb=attest.\n\n'
  + 'If signerName is not empty, then the ClusterTrustBundle object must be named with the signer name as a prefix '
  + '(translating slashes to colons). For example, for the signer name `example.com/foo`, valid ClusterTrustBundle '
  + 'object names include `example.com:foo:abc` and `example.com:foo:v1`.\n\n'
  + 'If signerName is empty, then the ClusterTrustBundle object\'s name must not have such a prefix.\n\n'
  + 'List/watch requests for ClusterTrustBundles can filter on this field using a `spec.signerName=NAME` field selector.';

export const clusterTrustBundleTable: TableConvertor = {
  columns: [nameColumn(), column('SignerName', 'string', signerNameDoc)],
  cells: (obj) => [obj.metadata.name ?? '', bundleSpec(obj).signerName || '<none>'],
};
