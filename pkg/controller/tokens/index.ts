// The tokens controller (SPEC 5.8, upstream's TokensController as of v1.28, which no
// longer makes Secrets for accounts): a Secret of type kubernetes.io/service-account-token
// naming an existing ServiceAccount gets a legacy token, ca.crt and namespace; one
// naming an account that is gone (or another uid) is deleted, as are an account's token
// Secrets when the account is deleted; a deleted token Secret leaves the account's list.
import { StatusError } from '../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import { legacyClaims, legacyIssuer } from '../../serviceaccount/claims.js';
import { TokenGenerator } from '../../serviceaccount/generator.js';
import { readPrivateKey } from '../../serviceaccount/keys.js';
import { updateWithRetry } from '../../client/retry.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue, keyOf, splitKey } from '../workqueue.js';

export const serviceAccountTokenType = 'kubernetes.io/service-account-token';
export const serviceAccountNameKey = 'kubernetes.io/service-account.name';
export const serviceAccountUIDKey = 'kubernetes.io/service-account.uid';

/** Undefined without a signing key: nothing to sign legacy tokens with. */
export function tokensController(d: ControllerContext): Controller | undefined {
  if (!d.o.serviceAccountSigningKeyFile) return undefined;
  const generator = new TokenGenerator(legacyIssuer, readPrivateKey(d.o.serviceAccountSigningKeyFile));
  const ca = d.rootCA();
  const secrets = d.informers.informerFor('', 'secrets');
  const serviceAccounts = d.informers.informerFor('', 'serviceaccounts');
  // Upstream runs this controller on kube-controller-manager's own credentials.
  const client = d.rootClient('tokens-controller');
  const secretClient = client.resource('', 'secrets');
  const saClient = client.resource('', 'serviceaccounts');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;
  /** Token Secrets that were deleted, by key, with the account they named. */
  const deletedSecrets = new Map<string, KubeObject>();

  const ignoreGone = (err: unknown): void => {
    if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
    throw err;
  };

  const syncSecret = async (key: string): Promise<void> => {
    const { namespace, name } = splitKey(key);
    const gone = deletedSecrets.get(key);
    if (gone) {
      deletedSecrets.delete(key);
      await removeSecretReference(gone).catch(ignoreGone);
      return;
    }
    const secret = secrets.get(namespace, name);
    if (!secret || secret.type !== serviceAccountTokenType || secret.metadata.deletionTimestamp) return;
    const ann = secret.metadata.annotations ?? {};
    const saName = ann[serviceAccountNameKey] ?? '';
    const saUID = ann[serviceAccountUIDKey] ?? '';
    let sa = serviceAccounts.get(namespace, saName);
    if (!sa && saName) sa = await saClient.get(namespace, saName).catch(() => undefined);
    if (!sa || (saUID && sa.metadata.uid !== saUID)) {
      await secretClient.delete(namespace, name, { preconditions: { uid: secret.metadata.uid } }).catch(ignoreGone);
      return;
    }
    const data = isPlainObject(secret.data) ? secret.data : {};
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const needs = !data.token || data['ca.crt'] !== b64(ca) || data.namespace !== b64(namespace) || saUID !== sa.metadata.uid;
    if (!needs) return;
    const account = sa;
    await updateWithRetry(secretClient, namespace, name, async (next) => {
      const d2: Record<string, string> = isPlainObject(next.data) ? { ...(next.data as Record<string, string>) } : {};
      if (!d2.token) d2.token = b64(await generator.generate(legacyClaims(account, next)));
      d2['ca.crt'] = b64(ca);
      d2.namespace = b64(namespace);
      next.data = d2;
      next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [serviceAccountNameKey]: account.metadata.name ?? '', [serviceAccountUIDKey]: account.metadata.uid ?? '' };
    }).catch(ignoreGone);
  };

  /** An account that is gone takes its token Secrets with it. */
  const syncServiceAccount = async (namespace: string, name: string, uid: string): Promise<void> => {
    for (const s of secrets.list(namespace)) {
      const ann = s.metadata.annotations ?? {};
      if (s.type !== serviceAccountTokenType || ann[serviceAccountNameKey] !== name) continue;
      if (ann[serviceAccountUIDKey] && ann[serviceAccountUIDKey] !== uid) continue;
      await secretClient.delete(namespace, s.metadata.name ?? '', { preconditions: { uid: s.metadata.uid } }).catch(ignoreGone);
    }
  };

  const removeSecretReference = async (secret: KubeObject): Promise<void> => {
    const ns = secret.metadata.namespace ?? '';
    const saName = secret.metadata.annotations?.[serviceAccountNameKey] ?? '';
    const sa = serviceAccounts.get(ns, saName);
    const refs = sa && Array.isArray(sa.secrets) ? sa.secrets : [];
    if (!refs.some((r) => isPlainObject(r) && r.name === secret.metadata.name)) return;
    await updateWithRetry(saClient, ns, saName, (next) => {
      next.secrets = (Array.isArray(next.secrets) ? next.secrets : []).filter((r) => !(isPlainObject(r) && r.name === secret.metadata.name));
    });
  };

  const process = async (key: string): Promise<void> => {
    if (key.startsWith('sa:')) {
      const [namespace, name, uid] = key.slice(3).split('\u0000') as [string, string, string];
      return syncServiceAccount(namespace, name, uid);
    }
    return syncSecret(key.slice(7));
  };

  return {
    name: 'tokens',
    start() {
      queue = new KeyedQueue(process, (key, err) => d.log.warn({ controller: 'tokens', key, err: (err as Error).message }, 'sync failed'));
      if (!handlersAdded) {
        handlersAdded = true;
        const onSecret = (s: KubeObject) => { if (s.type === serviceAccountTokenType) queue?.add(`secret:${keyOf(s.metadata)}`); };
        secrets.addHandlers({
          add: onSecret,
          update: onSecret,
          delete: (s) => {
            if (s.type !== serviceAccountTokenType) return;
            deletedSecrets.set(keyOf(s.metadata), s);
            queue?.add(`secret:${keyOf(s.metadata)}`);
          },
        });
        serviceAccounts.addHandlers({
          delete: (sa) => queue?.add(`sa:${sa.metadata.namespace ?? ''}\u0000${sa.metadata.name ?? ''}\u0000${sa.metadata.uid ?? ''}`),
          // A token Secret made before its account waits for the account.
          add: (sa) => {
            for (const s of secrets.list(sa.metadata.namespace)) {
              if (s.type === serviceAccountTokenType && s.metadata.annotations?.[serviceAccountNameKey] === sa.metadata.name) queue?.add(`secret:${keyOf(s.metadata)}`);
            }
          },
        });
      } else {
        for (const s of secrets.list()) if (s.type === serviceAccountTokenType) queue.add(`secret:${keyOf(s.metadata)}`);
      }
      const q = queue;
      return () => { q.stop(); if (queue === q) queue = undefined; };
    },
  };
}
