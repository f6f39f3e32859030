// What the certificate admission plugins share: upstream's IsAuthorizedForSignerName
// (the verb on `signers` named exactly, else on the signer's domain wildcard) and
// admission.NewForbidden's message shape.
import type { Authorizer } from '../../../authorization/interfaces.js';
import type { UserInfo } from '../../../authentication/user.js';
import { errors, type StatusError } from '../../../runtime/errors.js';
import type { AdmissionAttributes } from '../../interfaces.js';

export const csrGroup = 'certificates.k8s.io';
export const csrResource = 'certificatesigningrequests';

export const isCSR = (a: AdmissionAttributes): boolean => a.group === csrGroup && a.resource === csrResource;

export async function authorizedForSigner(authz: Authorizer, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  const ask = async (name: string) => (await authz.authorize({
    user, verb, name, isResourceRequest: true, path: '', namespace: '',
    apiGroup: csrGroup, apiVersion: '*', resource: 'signers', subresource: '',
  }).catch(() => ({ decision: 'noOpinion' as const }))).decision === 'allow';
  if (await ask(signerName)) return true;
  return ask(`${signerName.split('/')[0]}/*`);
}

/** admission.NewForbidden: the request's name, or the object's on create. */
export function forbidden(a: AdmissionAttributes, why: string): StatusError {
  return errors.forbidden({ group: a.group, resource: a.resource }, a.name || a.object?.metadata.name || '', why);
}
