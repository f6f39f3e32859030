// The 403 for a denied request, worded as upstream's responsewriters.Forbidden.
import { StatusError } from '../runtime/errors.js';
import type { Attributes } from './interfaces.js';

export function forbiddenError(attrs: Attributes, reason: string): StatusError {
  const who = `User "${attrs.user.name}"`;
  let msg: string;
  if (!attrs.isResourceRequest) {
    msg = `forbidden: ${who} cannot ${attrs.verb} path "${attrs.path}"`;
  } else {
    const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    msg = `${who} cannot ${attrs.verb} resource "${resource}" in API group "${attrs.apiGroup}"`;
    msg += attrs.namespace ? ` in the namespace "${attrs.namespace}"` : ' at the cluster scope';
    const target = attrs.name ? `${resourceWithGroup(attrs)} "${attrs.name}"` : resourceWithGroup(attrs);
    msg = `${target} is forbidden: ${msg}`;
  }
  if (reason) msg += `: ${reason}`;
  return new StatusError(403, 'Forbidden', msg, attrs.isResourceRequest
    ? { name: attrs.name || undefined, group: attrs.apiGroup, kind: attrs.resource } : {});
}

function resourceWithGroup(a: Attributes): string {
  return a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
}
