// Every background controller, registered by name in one list. They run only in the
// replica that holds the controller-manager election.
import type { ServerDeps } from '../server/deps.js';
import type { ControllerManager } from './manager.js';
import { garbageCollector } from './garbagecollector/index.js';
import { namespaceController } from './namespace/index.js';
import { bootstrapSignerController, tokenCleanerController } from './bootstrap/index.js';
import { serviceAccountController } from './serviceaccount/index.js';
import { tokensController } from './tokens/index.js';
import { ClusterRoleAggregationController } from './clusterroleaggregation/index.js';

export function registerControllers(_manager: ControllerManager, _d: ServerDeps): void {
  _manager.register(new ClusterRoleAggregationController(_d.informers.informerFor('rbac.authorization.k8s.io', 'clusterroles'), _d.registry.store('rbac.authorization.k8s.io', 'clusterroles'), _d.log));
  _manager.register(serviceAccountController(_d));
  const tokens = tokensController(_d); if (tokens) _manager.register(tokens);
  if (_d.o.enableBootstrapTokenAuth) _manager.register(bootstrapSignerController(_d));
  if (_d.o.enableBootstrapTokenAuth) _manager.register(tokenCleanerController(_d));
  _manager.register(namespaceController(_d));
  _manager.register(garbageCollector(_d));
  // Controllers are added here as they land (namespace, garbage collector, ...).
}
