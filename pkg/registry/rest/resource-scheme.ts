// The scheme of served resources: the runtime Scheme over full declarations, plus the
// binding of what a declaration needs from the running server (operations, computed
// reads, strategies built from flags, write hooks over etcd). Declarations stay shared
// constants: each ResourceScheme keeps its own bound copies.
import { Scheme, storageSegment } from '../../runtime/scheme.js';
import { subresourceOf, type ResourceDef, type VirtualCreate, type VirtualRead } from './resource.js';

export class ResourceScheme extends Scheme<ResourceDef> {
  /**
   * Gives a declared operation (a virtual resource's create, or an operation
   * subresource's) its implementation once the server state it needs exists
   * (authenticators, signing keys).
   */
  bindOperation(group: string, version: string, plural: string, subresource: string, create: VirtualCreate): void {
    const key = `${group}/${version}/${plural}`;
    const def = this.resource(group, version, plural);
    if (!def) throw new Error(`bindOperation: resource ${key} is not registered`);
    if (subresource) {
      if (!subresourceOf(def, subresource)) throw new Error(`bindOperation: ${key} has no subresource ${subresource}`);
      this.rebind(group, version, plural, (d) => ({
        ...d, subresources: (d.subresources ?? []).map((s) => (s.name === subresource ? { ...s, create } : s)),
      }));
    } else {
      if (!def.virtual) throw new Error(`bindOperation: ${key} is not a virtual resource`);
      this.rebind(group, version, plural, (d) => ({ ...d, virtual: create }));
    }
  }

  /** Gives a computed resource its reads once the server state they need exists. */
  bindRead(group: string, version: string, plural: string, read: VirtualRead): void {
    const key = `${group}/${version}/${plural}`;
    if (!this.resource(group, version, plural)?.read) throw new Error(`bindRead: ${key} is not a computed resource`);
    this.rebind(group, version, plural, (d) => ({ ...d, read }));
  }

  /** Gives a declared resource what it needs from the running server (a strategy built from flags, write hooks over etcd). */
  bindResource(group: string, version: string, plural: string, patch: Pick<Partial<ResourceDef>, 'strategy' | 'hooks'>): void {
    const key = `${group}/${version}/${plural}`;
    if (!this.resource(group, version, plural)) throw new Error(`bindResource: resource ${key} is not registered`);
    this.rebind(group, version, plural, (d) => ({ ...d, ...patch }));
  }

  /** Persisted resources, one per storage location (the first registered version serves it). */
  storedResources(): ResourceDef[] {
    const seen = new Set<string>();
    const out: ResourceDef[] = [];
    for (const d of this.resources()) {
      const k = storageSegment(d);
      if (d.virtual || d.read || seen.has(k)) continue;
      seen.add(k);
      out.push(d);
    }
    return out;
  }
}
