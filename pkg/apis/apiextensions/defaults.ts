// apiextensions/v1 defaulting (upstream: SetDefaults_CustomResourceDefinition and
// friends): singular and listKind from kind, conversion None, webhook service port 443,
// and storedVersions seeded with the storage version.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { asObject, storageVersion, type CRDConversion, type CRDSpec, type CRDStatus, type ServiceReference } from './types.js';

export function defaultCustomResourceDefinition(obj: KubeObject): void {
  if (!isPlainObject(obj.spec)) return;
  const spec = obj.spec as CRDSpec;
  const names = isPlainObject(spec.names) ? spec.names : undefined;
  if (names && typeof names.kind === 'string') {
    if (!names.singular) names.singular = names.kind.toLowerCase();
    if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  }
  const conversion = asObject<CRDConversion>(spec.conversion) ?? (spec.conversion = { strategy: 'None' });
  const service = asObject<ServiceReference>(asObject<{ service?: unknown }>(asObject<{ clientConfig?: unknown }>(conversion.webhook)?.clientConfig)?.service);
  if (service) service.port ??= 443;
  const status = isPlainObject(obj.status) ? (obj.status as CRDStatus) : undefined;
  if (status && (!Array.isArray(status.storedVersions) || status.storedVersions.length === 0)) {
    const v = storageVersion(obj);
    if (v !== undefined) status.storedVersions = [v];
  }
}
