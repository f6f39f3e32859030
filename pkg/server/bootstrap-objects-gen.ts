// Makes pkg/generated/bootstrap-objects.json (hack/gen-bootstrap-objects.ts writes it; a
// test keeps it current): the start-up hooks that write objects (system namespaces,
// priority classes, APIServices, the RBAC policy) run as a start on a fresh etcd runs them,
// through the client a start writes with (registry-client.ts, the generic store; no
// admission, which a start still runs), over a storage that keeps what it is given. Each
// object's last state is stored under the create request that made it: what the create
// path and the hooks' later writes to it (an APIService's status) store, but for its uid
// and times (blanked; set at each start). Only for a server without feature gates set and
// with the default API groups; any other request misses it and takes the full path.
import { AdmissionChain, type Admission } from '../admission/interfaces.js';
import { reconcileBootstrapPolicy } from '../bootstrappolicy/reconcile.js';
import { apiserverUser } from '../client/identities.js';
import type { Client } from '../client/interfaces.js';
import { managerOrUserAgent } from '../endpoints/handlers/write-options.js';
import { resetFeatureGates } from '../features/gates.js';
import { StoreRegistry } from '../registry/generic/registry.js';
import { buildScheme } from '../registry/index.js';
import type { ResourceScheme } from '../registry/rest/resource-scheme.js';
import type { KubeObject } from '../runtime/object.js';
import type { Storage } from '../storage/interfaces.js';
import { kubernetesUserAgent } from '../version/index.js';
import { ensureLocalAPIServices, ensureSystemNamespaces, ensureSystemPriorityClasses } from './bootstrap.js';
import { blankClockFields, bootstrapObjectKey } from './bootstrap-objects.js';
import { registryClient, type RegistryClientOptions } from './registry-client.js';

const refused = (): never => { throw new Error('the bootstrap hooks on an empty store list, create and update only'); };

/** An empty store that keeps, by key, the last object it is given to write; it lists, creates and updates, nothing else. */
export function capturingStorage(into: Map<string, KubeObject>): Storage {
  let revision = 1;
  const versions = new Map<string, string>();
  const withVersion = (key: string, obj: KubeObject): KubeObject => ({ ...obj, metadata: { ...obj.metadata, resourceVersion: versions.get(key) } });
  const keep = (key: string, obj: KubeObject): KubeObject => {
    // As etcd holds it: without its resourceVersion (storage/etcd/codec.ts).
    const { resourceVersion: _rv, ...meta } = obj.metadata;
    into.set(key, structuredClone({ ...obj, metadata: meta }));
    versions.set(key, String(++revision));
    return withVersion(key, structuredClone(obj));
  };
  const methods: Partial<Storage> = {
    create: async (key, obj) => keep(key, obj),
    list: async () => ({ items: [], resourceVersion: String(revision) }),
    guaranteedUpdate: async (key, _preconditions, tryUpdate) => {
      const current = into.get(key);
      if (!current) return refused();
      const next = await tryUpdate(withVersion(key, structuredClone(current)));
      return { object: next ? keep(key, next) : withVersion(key, current), created: false };
    },
  };
  return new Proxy(methods as Storage, { get: (target, method: keyof Storage) => target[method] ?? refused });
}

/** The client a start's hooks write with (server.ts), over `storage`; `prepared` as the server passes it, or none. */
export function bootstrapWriter(storage: Storage, scheme: ResourceScheme, prepared?: RegistryClientOptions['prepared'], admission: Admission = new AdmissionChain()): Client {
  const registry = new StoreRegistry(scheme, storage, '/registry');
  const refuse = new Proxy({}, { get: () => refused });
  const unused = { resource: () => refuse } as unknown as Client;
  return registryClient({ registry, admission, user: apiserverUser, userAgent: kubernetesUserAgent('kube-apiserver'), fallback: unused, prepared });
}

/** The start-up hooks that write objects, in a start's order. */
export async function runBootstrapHooks(client: Client, scheme: ResourceScheme): Promise<void> {
  await ensureSystemNamespaces(client);
  await ensureSystemPriorityClasses(client);
  await ensureLocalAPIServices(client, scheme);
  await reconcileBootstrapPolicy(client);
}

const identity = (kind: string | undefined, namespace: string | undefined, name: string | undefined): string => `${kind}/${namespace ?? ''}/${name ?? ''}`;

/** Each object's last state, keyed by the request that created it (bootstrapObjectKey). */
export async function makeBootstrapObjects(): Promise<Record<string, KubeObject>> {
  resetFeatureGates();
  const scheme = buildScheme();
  const written = new Map<string, KubeObject>();
  const requests = new Map<string, string>();
  const fieldManager = managerOrUserAgent('', kubernetesUserAgent('kube-apiserver'));
  const record: RegistryClientOptions['prepared'] = (r) => {
    if (r.fieldManager !== fieldManager) throw new Error(`bootstrap create with field manager ${r.fieldManager}`);
    requests.set(identity(r.body.kind, r.namespace || r.body.metadata.namespace, r.body.metadata.name), bootstrapObjectKey(r));
    return undefined;
  };
  await runBootstrapHooks(bootstrapWriter(capturingStorage(written), scheme, record), scheme);
  const out: Record<string, KubeObject> = {};
  for (const obj of written.values()) {
    const key = requests.get(identity(obj.kind, obj.metadata.namespace, obj.metadata.name));
    if (!key) throw new Error(`${obj.kind} ${obj.metadata.name} was written but not created`);
    out[key] = blankClockFields(obj);
  }
  return out;
}

/** The file's text: one object a line, so that a change shows as the objects it changed. */
export function formatBootstrapObjects(objects: Record<string, KubeObject>): string {
  return `{\n${Object.entries(objects).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(',\n')}\n}\n`;
}
