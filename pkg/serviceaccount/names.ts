// How service accounts appear as users: system:serviceaccount:<ns>:<name> in
// system:serviceaccounts and system:serviceaccounts:<ns>.
import { isDNS1123Label, isDNS1123Subdomain } from '../apis/validation/names.js';

export const serviceAccountUsernamePrefix = 'system:serviceaccount:';
export const allServiceAccountsGroup = 'system:serviceaccounts';
export const podNameExtraKey = 'authentication.kubernetes.io/pod-name';
export const podUIDExtraKey = 'authentication.kubernetes.io/pod-uid';

export function makeUsername(namespace: string, name: string): string {
  return `${serviceAccountUsernamePrefix}${namespace}:${name}`;
}

export function makeGroupNames(namespace: string): string[] {
  return [allServiceAccountsGroup, `${allServiceAccountsGroup}:${namespace}`];
}

/** The namespace and name of a service-account user name, or undefined when it is not one. */
export function splitUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountUsernamePrefix)) return undefined;
  const parts = username.slice(serviceAccountUsernamePrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}
