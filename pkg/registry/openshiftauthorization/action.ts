// OpenShift's ResourceAccessReview shapes (authorization.openshift.io/v1): the request
// is an Action inlined at the top level (verb, resourceAPIGroup, resourceAPIVersion,
// resource, resourceName, namespace, path, isNonResourceURL); the answer is a
// ResourceAccessReviewResponse (namespace, users, groups, and the error under OpenShift's
// wire name `evalutionError`, spelled so in its API).
import { required } from '../../apis/validation/field.js';
import type { Action, AllowedSubjects } from '../../authorization/whocan/interfaces.js';
import { errors } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';

export const openshiftAuthorizationGroup = 'authorization.openshift.io';

export interface ActionFields {
  namespace?: string; verb?: string; resourceAPIGroup?: string; resourceAPIVersion?: string; resource?: string;
  resourceName?: string; path?: string; isNonResourceURL?: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function actionFieldsOf(obj: KubeObject): ActionFields {
  return {
    namespace: str(obj.namespace), verb: str(obj.verb), resourceAPIGroup: str(obj.resourceAPIGroup),
    resourceAPIVersion: str(obj.resourceAPIVersion), resource: str(obj.resource), resourceName: str(obj.resourceName),
    path: str(obj.path), isNonResourceURL: obj.isNonResourceURL === true,
  };
}

/** OpenShift's validation: a verb, and a resource unless the action is on a non-resource URL. */
export function validateAction(kind: string, a: ActionFields): void {
  const errs = [];
  if (!a.verb) errs.push(required('verb'));
  if (!a.resource && !a.isNonResourceURL) errs.push(required('resource'));
  if (errs.length) throw errors.invalid(openshiftAuthorizationGroup, kind, '', errs);
}

/** As OpenShift builds authorizer attributes from an Action: `resource/subresource` splits. */
export function authorizerAction(a: ActionFields): Action {
  const [resource = '', subresource = ''] = (a.resource ?? '').split(/\/(.*)/s);
  if (a.isNonResourceURL) {
    return { verb: a.verb ?? '', isResourceRequest: false, path: a.path ?? '', namespace: a.namespace ?? '', apiGroup: '',
      apiVersion: '', resource: '', subresource: '', name: '' };
  }
  return {
    verb: a.verb ?? '', isResourceRequest: true, path: a.path ?? '', namespace: a.namespace ?? '', apiGroup: a.resourceAPIGroup ?? '',
    apiVersion: a.resourceAPIVersion || '*', resource, subresource, name: a.resourceName ?? '',
  };
}

export function responseOf(namespace: string, s: AllowedSubjects): KubeObject {
  const error = s.errors.length === 0 ? '' : s.errors.length === 1 ? s.errors[0]! : `[${s.errors.join(', ')}]`;
  const out: Record<string, unknown> = { kind: 'ResourceAccessReviewResponse', apiVersion: `${openshiftAuthorizationGroup}/v1` };
  if (namespace) out.namespace = namespace;
  out.users = [...s.users].sort();
  out.groups = [...s.groups].sort();
  out.evalutionError = error;
  // The name the readers (and SubjectAccessReview) use, beside OpenShift's own.
  if (error) out.evaluationError = error;
  return out as unknown as KubeObject;
}
