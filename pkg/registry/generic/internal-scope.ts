// Writes the server makes on its own behalf (bootstrap objects, controllers). They are
// recorded in managedFields under upstream's manager names, so ownership reads the same
// as on an upstream cluster. They do not pass through the admission chain.
import { AdmissionChain } from '../../admission/interfaces.js';
import type { UserInfo } from '../../authentication/user.js';
import type { RequestScope } from './store.js';

export const apiserverUser: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

/** The identity a controller acts as: its kube-system service account, as upstream's controllers use. */
export function controllerUser(name: string): UserInfo {
  return {
    name: `system:serviceaccount:kube-system:${name}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
}

/** kube-controller-manager's own credentials (its controllers without a service account of their own). */
export const kubeControllerManagerUser: UserInfo = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };

/** `kube-apiserver` for the server's own objects, `kube-controller-manager` for controllers. */
export type InternalManager = 'kube-apiserver' | 'kube-controller-manager';

const noAdmission = new AdmissionChain();

export function internalScope(user: UserInfo, fieldManager: InternalManager, extra: Partial<RequestScope> = {}): RequestScope {
  return { user, dryRun: false, admission: noAdmission, fieldManager, ...extra };
}
