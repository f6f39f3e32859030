// Makes pkg/generated/bootstrap-objects.json (hack/gen-bootstrap-objects.ts writes it; a
// test keeps it current): each object a start creates on a fresh etcd, sent through the
// create path a start uses (registry-client.ts and the generic store, without admission,
// which a start still runs) as far as the storage layer, and taken as handed to it: what
// the create path stores, but for its uid, creation time and managedFields times (blanked;
// set at each write). Only for a server without feature gates set and with
// the default API groups; any other request misses it and takes the full path.
import { AdmissionChain, type Admission } from '../admission/interfaces.js';
import { bootstrapPolicy } from '../bootstrappolicy/index.js';
import { apiserverUser } from '../client/identities.js';
import type { Client } from '../client/interfaces.js';
import { resetFeatureGates } from '../features/gates.js';
import { localAPIServices } from '../registry/apiregistration/apiservices/local.js';
import { StoreRegistry } from '../registry/generic/registry.js';
import { buildScheme } from '../registry/index.js';
import { systemPriorityClasses } from '../registry/scheduling/priorityclasses/strategy.js';
import type { KubeObject } from '../runtime/object.js';
import type { Storage } from '../storage/interfaces.js';
import { kubernetesUserAgent } from '../version/index.js';
import { systemNamespaces } from './bootstrap.js';
import { bootstrapObjectKey, type BootstrapRequest } from './bootstrap-objects.js';
import { managerOrUserAgent } from '../endpoints/handlers/write-options.js';
import { registryClient, type RegistryClientOptions } from './registry-client.js';

interface Creation { group: string; plural: string; version: string; namespace: string; body: KubeObject }

/** What the start-up hooks create on a fresh etcd, in their order, as they send it. */
export function bootstrapCreations(scheme = buildScheme()): Creation[] {
  const rbac = (plural: string) => (body: KubeObject): Creation => ({ group: 'rbac.authorization.k8s.io', plural, version: 'v1', namespace: body.metadata.namespace ?? '', body });
  const p = bootstrapPolicy();
  return [
    ...systemNamespaces.map((name) => ({ group: '', plural: 'namespaces', version: 'v1', namespace: '', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } })),
    ...systemPriorityClasses.map((body) => ({ group: 'scheduling.k8s.io', plural: 'priorityclasses', version: 'v1', namespace: '', body: structuredClone(body) })),
    ...localAPIServices(scheme).map((body) => ({ group: 'apiregistration.k8s.io', plural: 'apiservices', version: 'v1', namespace: '', body })),
    ...p.clusterRoles.map(rbac('clusterroles')), ...p.clusterRoleBindings.map(rbac('clusterrolebindings')),
    ...p.roles.map(rbac('roles')), ...p.roleBindings.map(rbac('rolebindings')),
  ];
}

/** A storage that keeps what it is asked to create and writes nothing. */
export function capturingStorage(into: KubeObject[]): Storage {
  return new Proxy({} as Storage, {
    get: (_, method) => method === 'create'
      ? async (_key: string, obj: KubeObject) => { into.push(structuredClone(obj)); return { ...obj, metadata: { ...obj.metadata, resourceVersion: '1' } }; }
      : () => { throw new Error('bootstrap objects are made with creates only'); },
  });
}

/** The client a start's hooks write with (server.ts), over `storage`; `prepared` as the server passes it, or none. */
export function bootstrapWriter(storage: Storage, prepared?: RegistryClientOptions['prepared'], admission: Admission = new AdmissionChain()): Client {
  const registry = new StoreRegistry(buildScheme(), storage, '/registry');
  const refuse = new Proxy({}, { get: () => () => { throw new Error('bootstrap objects are made with creates only'); } });
  const unused = { resource: () => refuse } as unknown as Client;
  return registryClient({ registry, admission, user: apiserverUser, userAgent: kubernetesUserAgent('kube-apiserver'), fallback: unused, prepared });
}

/** Each object as the create path hands it to storage, keyed by its request (bootstrapObjectKey). */
export async function makeBootstrapObjects(): Promise<Record<string, KubeObject>> {
  resetFeatureGates();
  const captured: KubeObject[] = [];
  const client = bootstrapWriter(capturingStorage(captured));
  const fieldManager = managerOrUserAgent('', kubernetesUserAgent('kube-apiserver'));
  const out: Record<string, KubeObject> = {};
  for (const c of bootstrapCreations()) {
    await client.resource(c.group, c.plural, c.version).create(c.namespace, c.body);
    const stored = captured.pop()!;
    // Kept where the create path put them (a JSON-encoded object keeps its key order).
    stored.metadata.uid = '';
    stored.metadata.creationTimestamp = '';
    for (const entry of stored.metadata.managedFields ?? []) entry.time = '';
    const request: BootstrapRequest = { ...c, fieldManager };
    out[bootstrapObjectKey(request)] = stored;
  }
  return out;
}

/** The file's text: one object a line, so that a change shows as the objects it changed. */
export function formatBootstrapObjects(objects: Record<string, KubeObject>): string {
  return `{\n${Object.entries(objects).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}\n`;
}
