// The policy status controller (upstream's validatingadmissionpolicy-status-controller):
// once per generation it writes status.observedGeneration and status.typeChecking. Every
// replica may run it; a write happens only while observedGeneration lags, so repeats are
// harmless.
import type { Logger } from 'pino';
import type { Informer } from '../../../client/informer.js';
import { StatusError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import { internalScope } from '../../../registry/generic/internal-scope.js';
import { controllerUser } from '../../../client/identities.js';
import type { GenericStore } from '../../../registry/generic/store.js';
import { typeCheckPolicy, type KindResolver } from './typechecking.js';

const scope = () => internalScope(controllerUser('validatingadmissionpolicy-status-controller'), 'kube-controller-manager',
  { subresource: 'status' });

function observed(p: KubeObject): number | undefined {
  const s = isPlainObject(p.status) ? p.status : {};
  return typeof s.observedGeneration === 'number' ? s.observedGeneration : undefined;
}

export class PolicyStatusController {
  private queue = Promise.resolve();

  constructor(private readonly informer: Informer, private readonly store: GenericStore, private readonly kinds: KindResolver,
    private readonly log?: Logger) {}

  start(): void {
    const enqueue = (p: KubeObject): void => {
      if (observed(p) === p.metadata.generation) return;
      this.queue = this.queue.then(() => this.sync(p.metadata.name ?? '')).catch((err: unknown) => {
        this.log?.warn({ policy: p.metadata.name, err: (err as Error).message }, 'validatingadmissionpolicy status sync failed');
      });
    };
    this.informer.addHandlers({ add: enqueue, update: enqueue });
  }

  private async sync(name: string): Promise<void> {
    try {
      await this.store.update('', name, async (current) => {
        if (!current) throw new StatusError(404, 'NotFound', 'gone');
        if (observed(current) === current.metadata.generation) return current;
        const next = structuredClone(current);
        const warnings = typeCheckPolicy(next, this.kinds);
        next.status = {
          ...(isPlainObject(next.status) ? next.status : {}),
          observedGeneration: next.metadata.generation,
          typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {},
        };
        return next;
      }, scope());
    } catch (err) {
      if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  }
}
