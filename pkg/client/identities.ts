// Who the server's own requests are made as (upstream's loopback identities): its own
// loops as system:apiserver, controllers as their kube-system service accounts
// (--use-service-account-credentials), the rest of the controller manager as itself.
import type { UserInfo } from '../authentication/user.js';

export const apiserverUser: UserInfo = { name: 'system:apiserver', groups: ['system:masters'] };

/** kube-controller-manager's own credentials (leader election, the tokens controller). */
export const kubeControllerManagerUser: UserInfo = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };

/** The service account kube-system/<name>, as a service-account token authenticates it. */
export function controllerUser(name: string): UserInfo {
  return {
    name: `system:serviceaccount:kube-system:${name}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
}
