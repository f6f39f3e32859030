// What authorization, APF classification and the audit policy read of a request: its
// info and its user, as one literal (`{ ...info, user }` costs about 1 us in Node 20, a
// spread with a member added, on every request).
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes } from '../../authorization/interfaces.js';
import type { RequestInfo } from './info.js';

export function attributesFor(user: UserInfo, info: RequestInfo): Attributes {
  return {
    user, verb: info.verb, isResourceRequest: info.isResourceRequest, path: info.path,
    namespace: info.namespace, apiGroup: info.apiGroup, apiVersion: info.apiVersion,
    resource: info.resource, subresource: info.subresource, name: info.name,
  };
}
