// NamespaceLifecycle: namespaced writes need an existing namespace (404 otherwise), and
// nothing new may be created in a namespace being terminated (403). The system
// namespaces default, kube-system and kube-public cannot be deleted.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { errors, StatusError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';

export const pluginName = 'NamespaceLifecycle';

/** Where the plugin looks namespaces up: the watch-fed cache first, storage when it must. */
export interface NamespaceSource {
  cached(name: string): KubeObject | undefined;
  /** Resolves once the cache has its first list; false when it does not in time. */
  waitForSync(timeoutMs: number): Promise<boolean>;
  /** Whether the cache has its first list now (lets a request be decided without waiting). */
  hasSynced?(): boolean;
  live(name: string): Promise<KubeObject | undefined>;
}

export interface NamespaceLifecycleOptions {
  immortalNamespaces?: string[];
  /** After a namespace DELETE, how long creates in it always check storage. */
  forceLiveLookupTTLMs?: number;
  readyTimeoutMs?: number;
}

const accessReviews = new Set(['localsubjectaccessreviews']);

function phaseOf(ns: KubeObject): string {
  return isPlainObject(ns.status) && typeof ns.status.phase === 'string' ? ns.status.phase : '';
}

export class NamespaceLifecycle implements AdmissionPlugin {
  readonly name = pluginName;
  private readonly immortal: Set<string>;
  private readonly forceLive = new Map<string, number>();

  constructor(private readonly source: NamespaceSource, private readonly o: NamespaceLifecycleOptions = {}) {
    this.immortal = new Set(o.immortalNamespaces ?? ['default', 'kube-system', 'kube-public']);
  }

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE' || op === 'DELETE';
  }

  admit(a: AdmissionAttributes): Promise<void> | void {
    // Most writes are decided at once: nothing to check, or a namespace the synced cache
    // shows, not being deleted here lately, and not terminating for a create.
    if (a.group === '' && a.kind === 'Namespace') {
      if (a.operation !== 'DELETE') return;
    } else {
      if (!a.namespace || a.operation === 'DELETE') return;
      if (a.group === 'authorization.k8s.io' && accessReviews.has(a.resource)) return;
      if (this.source.hasSynced?.() && !this.forceLive.has(a.namespace)) {
        const ns = this.source.cached(a.namespace);
        if (ns && (a.operation !== 'CREATE' || phaseOf(ns) !== 'Terminating')) return;
      }
    }
    return this.admitChecked(a);
  }

  private async admitChecked(a: AdmissionAttributes): Promise<void> {
    const isNamespace = a.group === '' && a.kind === 'Namespace';
    if (isNamespace) {
      if (a.operation === 'DELETE') {
        if (this.immortal.has(a.name)) {
          throw errors.forbidden({ group: '', resource: a.resource }, a.name, 'this namespace may not be deleted');
        }
        // The local cache may lag behind the termination just starting.
        this.forceLive.set(a.name, Date.now() + (this.o.forceLiveLookupTTLMs ?? 30_000));
      }
      return;
    }
    if (!a.namespace || a.operation === 'DELETE') return;
    if (a.group === 'authorization.k8s.io' && accessReviews.has(a.resource)) return;
    if (!(await this.source.waitForSync(this.o.readyTimeoutMs ?? 10_000))) {
      throw admissionForbidden(a, 'not yet ready to handle request');
    }
    let ns = this.source.cached(a.namespace);
    const until = this.forceLive.get(a.namespace);
    const mustLookLive = until !== undefined && until > Date.now() && ns !== undefined && phaseOf(ns) === 'Active';
    if (until !== undefined && until <= Date.now()) this.forceLive.delete(a.namespace);
    if (!ns || mustLookLive) {
      ns = await this.source.live(a.namespace);
      if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
    }
    if (a.operation === 'CREATE' && phaseOf(ns) === 'Terminating') {
      const err = admissionForbidden(a, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      throw new StatusError(err.code, err.reason, err.message, {
        ...err.details,
        causes: [...(err.details?.causes ?? []), {
          reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace',
        }],
      });
    }
  }
}
