// What makes a correctly signed service-account token valid: for bound tokens (the
// TokenRequest API) their times and the continued existence of the account and the
// bound object; for legacy Secret tokens their claims and, with --service-account-lookup,
// the Secret still holding that very token. Messages are upstream's.
import type { JWTPayload } from 'jose';
import type { KubeObject } from '../../runtime/object.js';
import { isPlainObject } from '../../runtime/object.js';
import { legacyClaimKeys } from '../../serviceaccount/claims.js';
import { splitUsername } from '../../serviceaccount/names.js';
import type { ServiceAccountGetter } from './getter.js';

export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUID?: string;
}

export interface Validator {
  /** Throws an Error whose message is the reason the token is refused. */
  validate(token: string, claims: JWTPayload): Promise<ServiceAccountInfo>;
}

/** Clock skew tolerated on exp/nbf/iat and on deletion times (go-jose's DefaultLeeway). */
const leewaySeconds = 60;

interface Ref { name: string; uid: string }

function refOf(v: unknown): Ref | undefined {
  if (!isPlainObject(v)) return undefined;
  return { name: typeof v.name === 'string' ? v.name : '', uid: typeof v.uid === 'string' ? v.uid : '' };
}

function deletedBefore(obj: KubeObject, cutoffMs: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return ts !== undefined && Date.parse(ts) < cutoffMs;
}

export class BoundTokenValidator implements Validator {
  constructor(private readonly getter: ServiceAccountGetter, private readonly now: () => number = Date.now) {}

  async validate(_token: string, claims: JWTPayload): Promise<ServiceAccountInfo> {
    const nowMs = this.now();
    const now = nowMs / 1000;
    if (typeof claims.exp === 'number' && now >= claims.exp + leewaySeconds) throw new Error('service account token has expired');
    if (typeof claims.nbf === 'number' && now + leewaySeconds < claims.nbf) throw new Error('service account token is not valid yet');
    if (typeof claims.iat === 'number' && now + leewaySeconds < claims.iat) throw new Error('service account token is issued in the future');

    const k = isPlainObject(claims['kubernetes.io']) ? claims['kubernetes.io'] : {};
    const namespace = typeof k.namespace === 'string' ? k.namespace : '';
    const saRef = refOf(k.serviceaccount) ?? { name: '', uid: '' };
    const cutoff = nowMs - leewaySeconds * 1000;

    const sa = await this.getter.serviceAccount(namespace, saRef.name);
    if ((sa.metadata.uid ?? '') !== saRef.uid) {
      throw new Error(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saRef.uid})`);
    }
    if (deletedBefore(sa, cutoff)) throw new Error(`service account ${namespace}/${saRef.name} has been deleted`);

    const secretRef = refOf(k.secret);
    if (secretRef) {
      const secret = await this.getter.secret(namespace, secretRef.name).catch(() => undefined);
      if (!secret) throw new Error('service account token has been invalidated');
      if (secretRef.uid !== (secret.metadata.uid ?? '')) {
        throw new Error(`secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${secretRef.uid})`);
      }
      if (deletedBefore(secret, cutoff)) throw new Error('service account token has been invalidated');
    }

    const info: ServiceAccountInfo = { namespace, name: saRef.name, uid: saRef.uid };
    const podRef = refOf(k.pod);
    if (podRef) {
      const pod = await this.getter.pod(namespace, podRef.name).catch(() => undefined);
      if (!pod) throw new Error('service account token has been invalidated');
      if (podRef.uid !== (pod.metadata.uid ?? '')) {
        throw new Error(`pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${podRef.uid})`);
      }
      if (deletedBefore(pod, cutoff)) throw new Error('service account token has been invalidated');
      info.podName = podRef.name;
      info.podUID = podRef.uid;
    }
    return info;
  }
}

export class LegacyTokenValidator implements Validator {
  constructor(private readonly lookup: boolean, private readonly getter: ServiceAccountGetter) {}

  async validate(token: string, claims: JWTPayload): Promise<ServiceAccountInfo> {
    const str = (k: string): string => (typeof claims[k] === 'string' ? (claims[k] as string) : '');
    if (!claims.sub) throw new Error('sub claim is missing');
    const namespace = str(legacyClaimKeys.namespace);
    if (!namespace) throw new Error('namespace claim is missing');
    const secretName = str(legacyClaimKeys.secretName);
    if (!secretName) throw new Error('secretName claim is missing');
    const name = str(legacyClaimKeys.serviceAccountName);
    if (!name) throw new Error('serviceAccountName claim is missing');
    const uid = str(legacyClaimKeys.serviceAccountUID);
    if (!uid) throw new Error('serviceAccountUID claim is missing');
    const subject = splitUsername(claims.sub);
    if (!subject || subject.namespace !== namespace || subject.name !== name) throw new Error('sub claim is invalid');

    if (this.lookup) {
      const secret = await this.getter.secret(namespace, secretName).catch(() => undefined);
      if (!secret || secret.metadata.deletionTimestamp) throw new Error('token has been invalidated');
      const data = isPlainObject(secret.data) ? secret.data : {};
      const stored = typeof data.token === 'string' ? Buffer.from(data.token, 'base64').toString('utf8') : '';
      if (stored !== token) throw new Error("token does not match server's copy");
      const sa = await this.getter.serviceAccount(namespace, name);
      if (sa.metadata.deletionTimestamp) throw new Error(`service account ${namespace}/${name} has been deleted`);
      if ((sa.metadata.uid ?? '') !== uid) throw new Error(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${uid})`);
    }
    return { namespace, name, uid };
  }
}
