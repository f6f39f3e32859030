// serviceaccounts/token (TokenRequest, authentication.k8s.io/v1): issues a bound token
// for an existing ServiceAccount, optionally bound to a Pod or Secret of its namespace,
// for the requested audiences (default: the API audiences) and lifetime.
import { invalid } from '../../../apis/validation/field.js';
import { errors } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { parseApiVersion } from '../../../runtime/scheme.js';
import type { VirtualCreate } from '../../rest/resource.js';
import { boundClaims } from '../../../serviceaccount/claims.js';
import type { TokenGenerator } from '../../../serviceaccount/generator.js';
import { nowTimestamp } from '../../generic/names.js';

/** The lifetime of a token whose request names none (SPEC 8: bound service-account token). */
export const defaultExpirationSeconds = 3607;
/** The lifetime kubelet asks for; pod-bound tokens of that length are quietly extended. */
export const warnOnlyBoundTokenExpirationSeconds = 3607;
export const expirationExtensionSeconds = 24 * 365 * 60 * 60;

type Lookup = (namespace: string, name: string) => Promise<KubeObject>;

export interface TokenRequestOptions {
  generator: TokenGenerator;
  apiAudiences: string[];
  /** --service-account-max-token-expiration in seconds; 0 for no limit. */
  maxExpirationSeconds: number;
  /** --service-account-extend-token-expiration. */
  extendExpiration: boolean;
  serviceAccount: Lookup;
  secret: Lookup;
  /** Absent until pods are served. */
  pod?: Lookup;
}

const group = 'authentication.k8s.io';
const kind = 'TokenRequest';

export function tokenRequestCreate(o: TokenRequestOptions): VirtualCreate {
  return async (obj, ctx) => {
    const name = ctx.name;
    const namespace = ctx.namespace;
    if (!namespace) throw errors.badRequest('namespace is required');
    if (obj.metadata.name && obj.metadata.name !== name) {
      throw errors.invalid(group, kind, name, [invalid('metadata.name', obj.metadata.name, 'must match the service account name if specified')]);
    }
    if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
      throw errors.invalid(group, kind, name, [invalid('metadata.namespace', obj.metadata.namespace, 'must match the service account namespace if specified')]);
    }
    const sa = await o.serviceAccount(namespace, name);

    const spec = isPlainObject(obj.spec) ? { ...obj.spec } : {};
    let audiences = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    if (audiences.length === 0) audiences = [...o.apiAudiences];
    let expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : defaultExpirationSeconds;
    const now = Date.now();
    const creationTimestamp = nowTimestamp();

    if (expirationSeconds < 600) {
      throw errors.invalid(group, kind, '', [invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes')]);
    }
    if (expirationSeconds > 2 ** 32) {
      throw errors.invalid(group, kind, '', [invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds')]);
    }

    const ref = isPlainObject(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
    let pod: KubeObject | undefined;
    let secret: KubeObject | undefined;
    if (ref) {
      const refKind = typeof ref.kind === 'string' ? ref.kind : '';
      const refName = typeof ref.name === 'string' ? ref.name : '';
      const gv = parseApiVersion(typeof ref.apiVersion === 'string' ? ref.apiVersion : '');
      let uid = '';
      if (gv.group === '' && refKind === 'Pod') {
        pod = await (o.pod ?? notServed('pods'))(namespace, refName);
        const podSA = isPlainObject(pod.spec) && typeof pod.spec.serviceAccountName === 'string' ? pod.spec.serviceAccountName : '';
        if (name !== podSA) {
          throw errors.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
        }
        uid = pod.metadata.uid ?? '';
      } else if (gv.group === '' && refKind === 'Secret') {
        secret = await o.secret(namespace, refName);
        uid = secret.metadata.uid ?? '';
      } else {
        throw errors.badRequest(`cannot bind token to object of type ${gv.group}/${gv.version}, Kind=${refKind}`);
      }
      if (typeof ref.uid === 'string' && ref.uid !== '' && ref.uid !== uid) {
        throw errors.conflict({ group: gv.group, resource: refKind }, refName,
          `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
      }
    }

    if (o.maxExpirationSeconds > 0 && expirationSeconds > o.maxExpirationSeconds) expirationSeconds = o.maxExpirationSeconds;
    let exp = expirationSeconds;
    let warnAfter = 0;
    const kubeAudiences = audiences.every((a) => o.apiAudiences.includes(a));
    if (o.extendExpiration && pod && expirationSeconds === warnOnlyBoundTokenExpirationSeconds && kubeAudiences) {
      warnAfter = exp;
      exp = expirationExtensionSeconds;
    }

    const nowSec = Math.floor(now / 1000);
    const claims = boundClaims({ serviceAccount: sa, pod, secret, expirationSeconds: exp, warnAfterSeconds: warnAfter, audiences, now: nowSec });
    const token = await o.generator.generate({ ...claims });
    return {
      apiVersion: `${group}/v1`,
      kind,
      metadata: { ...obj.metadata, name, namespace, creationTimestamp },
      spec: { audiences, expirationSeconds, boundObjectRef: ref ?? null },
      status: { token, expirationTimestamp: new Date((nowSec + expirationSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    };
  };
}

function notServed(plural: string): Lookup {
  return async (_ns, name) => { throw errors.notFound({ group: '', resource: plural }, name); };
}
