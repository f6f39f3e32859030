// Keeps the rules of every ClusterRole with an aggregationRule equal to the union of the
// rules of the ClusterRoles its selectors match (upstream's clusterrole-aggregation
// controller): selectors in order, matching roles by name, each distinct rule once.
// Direct edits of an aggregated role's rules are overwritten on the next pass.
import type { Logger } from 'pino';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../apis/meta/labels.js';
import type { ClusterRoleObject, PolicyRule } from '../../authorization/rbac/types.js';
import type { Informer } from '../../client/informer.js';
import type { ResourceClient } from '../../client/interfaces.js';
import { updateWithRetry } from '../../client/retry.js';
import type { Controller } from '../manager.js';
const debounceMs = 20;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The rules an aggregated role should have, given every ClusterRole. */
export function aggregatedRules(role: ClusterRoleObject, all: ClusterRoleObject[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  const sorted = [...all].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  for (const sel of role.aggregationRule?.clusterRoleSelectors ?? []) {
    let selector;
    try {
      selector = labelSelectorFromObject(sel as LabelSelectorObject);
    } catch {
      continue;
    }
    for (const other of sorted) {
      if (other.metadata.name === role.metadata.name || !selector.matches(other.metadata.labels)) continue;
      for (const r of other.rules ?? []) if (!rules.some((x) => same(x, r))) rules.push(r);
    }
  }
  return rules;
}

export class ClusterRoleAggregationController implements Controller {
  readonly name = 'clusterrole-aggregation-controller';
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = true;
  private watching = false;

  constructor(private readonly informer: Informer, private readonly client: ResourceClient, private readonly log?: Logger) {}

  start(): () => void {
    this.stopped = false;
    const kick = (): void => this.schedule();
    if (!this.watching) {
      this.watching = true;
      this.informer.addHandlers({ add: kick, update: kick, delete: kick });
    }
    void this.informer.waitForSync().then(kick);
    return () => {
      this.stopped = true;
      if (this.timer) clearTimeout(this.timer);
    };
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => { this.timer = undefined; void this.syncAll(); }, debounceMs);
  }

  async syncAll(): Promise<void> {
    if (this.stopped) return;
    if (this.running) { this.again = true; return; }
    this.running = true;
    try {
      const all = this.informer.list() as ClusterRoleObject[];
      for (const role of all) {
        if (!role.aggregationRule) continue;
        const want = aggregatedRules(role, all);
        if (same(role.rules ?? [], want)) continue;
        try {
          await updateWithRetry(this.client, '', role.metadata.name ?? '', (current) => {
            current.rules = aggregatedRules(current as ClusterRoleObject, this.informer.list() as ClusterRoleObject[]);
          });
        } catch (err) {
          this.log?.warn({ clusterrole: role.metadata.name, err: (err as Error).message }, 'clusterrole aggregation failed; will retry');
          this.again = true;
        }
      }
    } finally {
      this.running = false;
    }
    if (this.again) { this.again = false; this.schedule(); }
  }
}
