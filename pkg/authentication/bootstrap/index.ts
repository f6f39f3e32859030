// --enable-bootstrap-token-auth: `<id>.<secret>` tokens checked against the Secrets in
// kube-system as a watch-fed cache holds them (no etcd read per request; a new or
// deleted token is seen as soon as the watch delivers it). Any mismatch is no opinion,
// so a bad token ends as upstream's "invalid bearer token".
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../../runtime/object.js';
import type { AuthResult, TokenAuthenticator } from '../interfaces.js';
import {
  bootstrapTokenNamespace, bootstrapTokenSecretType, bootstrapUserPrefix, groupsOf, hasExpired, keys,
  parseBootstrapToken, secretData, secretName,
} from './token.js';

/** Reads Secrets in kube-system from a cache. */
export type SecretLister = (namespace: string, name: string) => KubeObject | undefined;

export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  readonly name = 'bootstrap';
  constructor(private readonly secrets: SecretLister, private readonly onReject: (why: string) => void = () => undefined) {}

  async authenticateToken(token: string): Promise<AuthResult> {
    const parsed = parseBootstrapToken(token);
    if (!parsed) return { decision: 'noOpinion' };
    const name = secretName(parsed.id);
    const secret = this.secrets(bootstrapTokenNamespace, name);
    const reject = (why: string): AuthResult => {
      this.onReject(`Bootstrap secret ${bootstrapTokenNamespace}/${name} ${why}`);
      return { decision: 'noOpinion' };
    };
    if (!secret) return { decision: 'noOpinion' };
    if (secret.metadata.deletionTimestamp) return reject('is deleted and awaiting removal');
    if (secret.type !== bootstrapTokenSecretType || !secret.data) return reject(`has invalid type, expected ${bootstrapTokenSecretType}.`);
    if (!constantTimeEqual(secretData(secret, keys.secret), parsed.secret)) return reject(`has invalid value for key ${keys.secret}.`);
    const id = secretData(secret, keys.id);
    if (id !== parsed.id) return reject(`has invalid value for key ${keys.id}.`);
    if (hasExpired(secret)) return reject('has expired.');
    if (secretData(secret, keys.usageAuthentication) !== 'true') return reject(`not marked ${keys.usageAuthentication}=true.`);
    const groups = groupsOf(secret);
    if ('error' in groups) return reject(`has invalid value for key ${keys.extraGroups}: ${groups.error}.`);
    return { decision: 'authenticated', user: { name: bootstrapUserPrefix + id, groups: groups.groups } };
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
