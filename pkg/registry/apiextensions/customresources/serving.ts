// Which custom resources a replica serves: every Established CRD's served versions,
// kept in the Scheme as the CRDs change (fed by the replica's CRD informer, so a CRD
// created through any replica is served by all of them). A CRD that is gone, or no
// longer established, takes its resources out of the Scheme.
import type { KubeObject } from '../../../runtime/object.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { ResourceScheme } from '../../rest/resource-scheme.js';
import { isConditionTrue } from '../../../apis/apiextensions/types.js';
import { customResourceDefs, type CustomResourceDeps } from './index.js';

/** What one CRD's resources need; `close` releases it when the CRD changes or goes. */
export type DepsFor = (crd: KubeObject) => CustomResourceDeps & { close?(): void };

export class CustomResourceServing {
  /** CRD name → what it was served from (resourceVersion) and what it registered. */
  private served = new Map<string, { resourceVersion: string; defs: ResourceDef[]; close?(): void }>();

  constructor(private readonly scheme: ResourceScheme, private readonly depsFor: DepsFor,
    private readonly onChange: (defs: { added: ResourceDef[]; removed: ResourceDef[] }) => void = () => {}) {}

  /** Serves the CRD as it now is. */
  update(crd: KubeObject): void {
    const name = crd.metadata.name ?? '';
    const current = this.served.get(name);
    if (current && current.resourceVersion === crd.metadata.resourceVersion) return;
    if (!isConditionTrue(crd, 'Established')) { this.remove(name); return; }
    const deps = this.depsFor(crd);
    const defs = customResourceDefs(crd, deps);
    const keep = new Set(defs.map(key));
    const removed = (current?.defs ?? []).filter((d) => !keep.has(key(d)));
    for (const d of removed) this.scheme.unregister(d.group, d.version, d.plural);
    for (const d of defs) this.scheme.replace(d);
    current?.close?.();
    this.served.set(name, { resourceVersion: crd.metadata.resourceVersion ?? '', defs, close: deps.close?.bind(deps) });
    this.onChange({ added: defs, removed });
  }

  remove(name: string): void {
    const current = this.served.get(name);
    if (!current) return;
    for (const d of current.defs) this.scheme.unregister(d.group, d.version, d.plural);
    current.close?.();
    this.served.delete(name);
    this.onChange({ added: [], removed: current.defs });
  }
}

function key(d: ResourceDef): string {
  return `${d.group}/${d.version}/${d.plural}`;
}
