// Every background controller, registered by name in one list. They run only in the
// replica that holds the controller-manager election.
import { bootstrapSignerController, tokenCleanerController } from './bootstrap/index.js';
import { csrApprovingController } from './certificates/approver/index.js';
import { csrCleanerController } from './certificates/cleaner/index.js';
import { csrSigningController } from './certificates/signer/index.js';
import { ClusterRoleAggregationController } from './clusterroleaggregation/index.js';
import { garbageCollector } from './garbagecollector/index.js';
import type { ControllerContext, ControllerOptions } from './context.js';
import type { Controller, ControllerManager } from './manager.js';
import { namespaceController } from './namespace/index.js';
import { resourceQuotaController } from './resourcequota/index.js';
import { rootCACertPublisher } from './rootcacertpublisher/index.js';
import { serviceAccountController } from './serviceaccount/index.js';
import { tokensController } from './tokens/index.js';
import { pvcProtectionController, pvProtectionController } from './volumeprotection/index.js';

type ControllerFactory = (c: ControllerContext) => Controller | undefined;

/** Upstream's controller names; a factory returning undefined has nothing to do with these flags. */
const controllers: Array<[name: string, factory: ControllerFactory]> = [
  ['clusterrole-aggregation', (c) => new ClusterRoleAggregationController(c.informers.informerFor('rbac.authorization.k8s.io', 'clusterroles'),
    c.client('clusterrole-aggregation-controller').resource('rbac.authorization.k8s.io', 'clusterroles'), c.log)],
  ['serviceaccount', serviceAccountController],
  ['serviceaccount-token', tokensController],
  ['root-ca-cert-publisher', rootCACertPublisher],
  ['bootstrapsigner', bootstrapSignerController],
  ['tokencleaner', tokenCleanerController],
  ['namespace', (c) => namespaceController(c)],
  ['garbagecollector', garbageCollector],
  ['csrsigning', csrSigningController],
  ['csrapproving', csrApprovingController],
  ['csrcleaner', csrCleanerController],
  ['resourcequota', resourceQuotaController],
  ['pvc-protection', pvcProtectionController],
  ['pv-protection', pvProtectionController],
];

/** Off unless named in --controllers, as upstream. */
const offByDefault = new Set(['bootstrapsigner', 'tokencleaner']);

/**
 * --controllers as kube-controller-manager reads it: `-name` disables, `name` enables,
 * `*` enables everything not off by default. Bootstrap-token auth also turns on the
 * bootstrap signer and token cleaner unless disabled, so one flag gives working tokens.
 */
export function controllerEnabled(name: string, o: Pick<ControllerOptions, 'controllers' | 'enableBootstrapTokenAuth'>): boolean {
  const list = o.controllers;
  // Ours: `-*` runs none, for an upstream kube-controller-manager to run them instead.
  if (list.includes('-*')) return false;
  if (list.includes(`-${name}`)) return false;
  if (list.includes(name)) return true;
  if (offByDefault.has(name)) return o.enableBootstrapTokenAuth;
  return list.includes('*');
}

export function controllerNames(): string[] {
  return controllers.map(([name]) => name);
}

export function registerControllers(manager: ControllerManager, c: ControllerContext): void {
  const known = new Set(controllerNames());
  for (const entry of c.o.controllers) {
    const name = entry.replace(/^-/, '');
    if (name !== '*' && !known.has(name)) throw new Error(`--controllers: "${name}" is not in the list of known controllers`);
  }
  for (const [name, factory] of controllers) {
    if (!controllerEnabled(name, c.o)) continue;
    const controller = factory(c);
    if (controller) manager.register(controller);
  }
}
