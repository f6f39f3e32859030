// NamespaceExists: a namespaced request to a namespace that does not exist is answered
// 404 for the namespace. The cache is asked first and storage when the cache has nothing,
// since a namespace created a moment ago may not have reached the cache yet.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { readyTimeoutMs } from '../../lister.js';
import { errors, StatusError } from '../../../runtime/errors.js';
import type { NamespaceSource } from '../namespacelifecycle/index.js';

export const isNamespaceRequest = (a: AdmissionAttributes): boolean => a.group === '' && a.kind === 'Namespace';

export class NamespaceExists implements AdmissionPlugin {
  readonly name = 'NamespaceExists';
  constructor(private readonly namespaces: NamespaceSource) {}

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE' || op === 'DELETE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (!a.namespace || isNamespaceRequest(a)) return;
    if (!(await this.namespaces.waitForSync(readyTimeoutMs))) throw admissionForbidden(a, 'not yet ready to handle request');
    if (this.namespaces.cached(a.namespace)) return;
    let ns;
    try {
      ns = await this.namespaces.live(a.namespace);
    } catch (err) {
      // etcd's 503 or 504 (the registry's answer for an outage) stays what it is.
      throw err instanceof StatusError && [500, 503, 504].includes(err.code) ? err : errors.internal(err);
    }
    if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, a.namespace);
  }
}
