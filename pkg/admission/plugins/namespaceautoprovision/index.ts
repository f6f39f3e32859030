// NamespaceAutoProvision: creating an object in a namespace that does not exist creates
// the namespace first (not for dry runs). The namespace is written as the API server
// itself, as upstream's plugin does through its loopback client.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import { readyTimeoutMs } from '../../lister.js';
import { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { isNamespaceRequest } from '../namespaceexists/index.js';

export interface NamespaceProvisioner {
  cached(name: string): KubeObject | undefined;
  waitForSync(timeoutMs: number): Promise<boolean>;
  create(name: string): Promise<void>;
}

export class NamespaceAutoProvision implements AdmissionPlugin {
  readonly name = 'NamespaceAutoProvision';
  constructor(private readonly namespaces: NamespaceProvisioner) {}

  handles(op: Operation): boolean {
    return op === 'CREATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.dryRun || !a.namespace || isNamespaceRequest(a)) return;
    if (!(await this.namespaces.waitForSync(readyTimeoutMs))) throw admissionForbidden(a, 'not yet ready to handle request');
    if (this.namespaces.cached(a.namespace)) return;
    try {
      await this.namespaces.create(a.namespace);
    } catch (err) {
      if (err instanceof StatusError && err.reason === 'AlreadyExists') return;
      throw admissionForbidden(a, err instanceof Error ? err.message : String(err));
    }
  }
}
