// Upstream's crdRegistrationController: every group version some CRD serves has a local
// APIService (`<version>.<group>`, group priority 1000, version priority 100, marked
// automanaged), so `kubectl get apiservices` and the aggregator see custom groups as
// upstream's do; the APIService goes when no CRD serves that group version any more.
import type { Logger } from 'pino';
import type { KubeObject } from '../../runtime/object.js';
import type { Informer } from '../../client/informer.js';
import type { ResourceClient } from '../../client/interfaces.js';
import { isNotFound, updateWithRetry } from '../../client/retry.js';
import { StatusError } from '../../runtime/errors.js';
import { crdSpec, crdVersions } from '../../apis/apiextensions/types.js';
import { automanagedLabel, isLocalAvailable, localAvailableStatus } from '../../registry/apiregistration/apiservices/local.js';
import { nowTimestamp } from '../../registry/generic/names.js';
import type { Controller } from '../manager.js';
import { KeyedQueue } from '../workqueue.js';

const groupPriorityMinimum = 1000;
const versionPriority = 100;

/** `<version>.<group>` of every version the CRD serves. */
function servedGroupVersions(crd: KubeObject): string[] {
  const group = crdSpec(crd).group;
  if (!group) return [];
  return crdVersions(crd).filter((v) => v.served === true && v.name).map((v) => `${v.name}.${group}`);
}

export class CRDRegistrationController implements Controller {
  readonly name = 'crd-registration';
  private queue: KeyedQueue | undefined;
  private handlersAdded = false;

  constructor(private readonly crds: Informer, private readonly apiServices: ResourceClient, private readonly log: Logger) {}

  start(): () => void {
    const q = new KeyedQueue((key) => this.sync(key),
      (key, err) => this.log.warn({ controller: this.name, apiService: key, err: (err as Error).message }, 'sync failed'));
    this.queue = q;
    if (!this.handlersAdded) {
      this.handlersAdded = true;
      const enqueue = (crd: KubeObject) => { for (const k of servedGroupVersions(crd)) this.queue?.add(k); };
      this.crds.addHandlers({ add: enqueue, update: (crd, old) => { enqueue(old); enqueue(crd); }, delete: enqueue });
    }
    void this.crds.waitForSync().then(() => { for (const crd of this.crds.list()) for (const k of servedGroupVersions(crd)) q.add(k); });
    return () => { q.stop(); if (this.queue === q) this.queue = undefined; };
  }

  async idle(): Promise<void> {
    await this.queue?.idle();
  }

  private async sync(key: string): Promise<void> {
    const wanted = this.crds.list().some((crd) => servedGroupVersions(crd).includes(key));
    if (wanted) await this.ensure(key);
    else await this.remove(key);
  }

  private async ensure(key: string): Promise<void> {
    const dot = key.indexOf('.');
    const desired: KubeObject = {
      apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
      metadata: { name: key, labels: { [automanagedLabel]: 'true' } },
      spec: { group: key.slice(dot + 1), version: key.slice(0, dot), groupPriorityMinimum, versionPriority },
    };
    try {
      await this.apiServices.create('', desired);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 409)) throw err;
    }
    await updateWithRetry(this.apiServices, '', key, (current) => {
      const local = current.spec && (current.spec as Record<string, unknown>).service == null;
      if (!local || isLocalAvailable(current)) return false;
      current.status = localAvailableStatus(nowTimestamp());
    }, { subresource: 'status' });
  }

  private async remove(key: string): Promise<void> {
    try {
      const current = await this.apiServices.get('', key);
      if (current.metadata.labels?.[automanagedLabel] !== 'true') return;
      await this.apiServices.delete('', key);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
