// Every background controller, registered by name in one list. They run only in the
// replica that holds the controller-manager election.
import type { ServerDeps } from '../server/deps.js';
import type { ControllerManager } from './manager.js';

export function registerControllers(_manager: ControllerManager, _d: ServerDeps): void {
  // Controllers are added here as they land (namespace, garbage collector, ...).
}
