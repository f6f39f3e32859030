// The bootstrap signer (SPEC 5.5): the `kubeconfig` of ConfigMap kube-public/cluster-info
// carries a `jws-kubeconfig-<id>` signature for every bootstrap token that may sign
// (usage-bootstrap-signing=true, not expired); signatures of other tokens are removed.
import { updateWithRetry } from '../../client/retry.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';
import {
  bootstrapTokenNamespace, bootstrapTokenSecretPrefix, bootstrapTokenSecretType, hasExpired, keys, secretData,
} from '../../authentication/bootstrap/token.js';
import type { ControllerContext } from '../context.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';
import { computeDetachedSignature } from './jws.js';

export const clusterInfoNamespace = 'kube-public';
export const clusterInfoName = 'cluster-info';
export const kubeconfigKey = 'kubeconfig';
export const signaturePrefix = 'jws-kubeconfig-';

/** Tokens that may sign, id -> secret. */
export function signingTokens(secrets: KubeObject[], now = Date.now()): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of secrets) {
    if (s.type !== bootstrapTokenSecretType || s.metadata.deletionTimestamp) continue;
    const name = s.metadata.name ?? '';
    if (!name.startsWith(bootstrapTokenSecretPrefix)) continue;
    const id = secretData(s, keys.id);
    const secret = secretData(s, keys.secret);
    if (!id || id !== name.slice(bootstrapTokenSecretPrefix.length) || !secret) continue;
    if (hasExpired(s, now) || secretData(s, keys.usageSigning) !== 'true') continue;
    out.set(id, secret);
  }
  return out;
}

export function bootstrapSignerController(d: ControllerContext): Controller {
  const configMaps = d.informers.informerFor('', 'configmaps');
  const secrets = d.informers.informerFor('', 'secrets');
  const client = d.client('bootstrap-signer').resource('', 'configmaps');
  let queue: KeyedQueue | undefined;
  let handlersAdded = false;
  let expiryTimer: NodeJS.Timeout | undefined;

  const sign = async (): Promise<void> => {
    const cm = configMaps.get(clusterInfoNamespace, clusterInfoName);
    if (!cm) return;
    const data = isPlainObject(cm.data) ? (cm.data as Record<string, string>) : {};
    const content = data[kubeconfigKey];
    if (content === undefined) return;
    const tokenSecrets = secrets.list(bootstrapTokenNamespace);
    const tokens = signingTokens(tokenSecrets);
    const next: Record<string, string> = {};
    const old = new Map<string, string>();
    for (const [k, v] of Object.entries(data)) {
      if (k.startsWith(signaturePrefix)) old.set(k.slice(signaturePrefix.length), v);
      else next[k] = v;
    }
    let changed = false;
    for (const [id, secret] of tokens) {
      const sig = await computeDetachedSignature(content, id, secret);
      if (old.get(id) !== sig) changed = true;
      old.delete(id);
      next[signaturePrefix + id] = sig;
    }
    if (old.size > 0) changed = true;
    scheduleExpiry(tokenSecrets);
    if (!changed) return;
    await updateWithRetry(client, clusterInfoNamespace, clusterInfoName, (current) => { current.data = next; });
  };

  /** A token that expires must lose its signature then, without any other event. */
  const scheduleExpiry = (tokenSecrets: KubeObject[]): void => {
    if (expiryTimer) clearTimeout(expiryTimer);
    const now = Date.now();
    const next = tokenSecrets.map((s) => Date.parse(secretData(s, keys.expiration))).filter((t) => t > now).sort((a, b) => a - b)[0];
    if (next === undefined) return;
    expiryTimer = setTimeout(() => queue?.add('sign'), Math.min(next - now + 50, 2 ** 31 - 1));
    expiryTimer.unref();
  };

  return {
    name: 'bootstrapsigner',
    start() {
      queue = new KeyedQueue(sign, (_k, err) => d.log.warn({ controller: 'bootstrapsigner', err: (err as Error).message }, 'signing cluster-info failed'));
      if (!handlersAdded) {
        handlersAdded = true;
        const onCM = (cm: KubeObject) => { if (cm.metadata.namespace === clusterInfoNamespace && cm.metadata.name === clusterInfoName) queue?.add('sign'); };
        configMaps.addHandlers({ add: onCM, update: onCM });
        const onSecret = (s: KubeObject) => { if (s.metadata.namespace === bootstrapTokenNamespace && s.type === bootstrapTokenSecretType) queue?.add('sign'); };
        secrets.addHandlers({ add: onSecret, update: onSecret, delete: onSecret });
      }
      queue.add('sign');
      const q = queue;
      return () => { q.stop(); if (expiryTimer) clearTimeout(expiryTimer); if (queue === q) queue = undefined; };
    },
  };
}
