// Writes admission itself makes while it admits a request, straight to the store: quota
// charges (a compare-and-swap on the quota's status that must land before the object
// does), ValidatingAdmissionPolicy type-checking status, NamespaceAutoProvision's
// namespace. Upstream makes these through its loopback client; here they skip the chain
// because they happen inside it (a charge admitted by admission would recurse).
// Everything else the server writes goes through pkg/client's loopback.
import { AdmissionChain } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import type { RequestScope } from './store.js';

/** `kube-apiserver` for the server's own objects, `kube-controller-manager` for controllers. */
export type InternalManager = 'kube-apiserver' | 'kube-controller-manager';

const noAdmission = new AdmissionChain();

export function internalScope(user: UserInfo, fieldManager: InternalManager, extra: Partial<RequestScope> = {}): RequestScope {
  return { user, dryRun: false, admission: noAdmission, fieldManager, ...extra };
}
