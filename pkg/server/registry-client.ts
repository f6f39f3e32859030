// The server's own start-up writes (upstream's post-start hooks: system namespaces,
// priority classes, APIServices, the RBAC policy; some 230 objects on a fresh etcd) and
// the bootstrap controller's (the kubernetes Service and its endpoints), sent
// straight to the generic store, as the create and update handlers would: the body
// decoded as a JSON body is (type checks, defaults, unknown fields dropped), the field
// manager named after the User-Agent, admission run by the store. What the handler chain
// adds for a request of system:masters changes nothing stored (authorization allows it,
// flow control exempts it) and cost twice the write itself: koa, filters, metrics, a JSON
// round trip each way. Creates may share etcd transactions (WriteOptions.coalesce): on a
// fresh etcd nearly all of them are pending together. A server that audits sends them
// through the chain, so its audit log still shows them (server.ts). Other verbs go to
// `fallback`.
import type { Admission } from '../admission/interfaces.js';
import type { UserInfo } from '../authentication/user.js';
import type { Client, ListOptions, ResourceClient, WriteOptions } from '../client/interfaces.js';
import { dropUnknownFields, typeRefOf } from '../endpoints/fieldvalidation/index.js';
import { toKubeObject } from '../endpoints/handlers/decode.js';
import { checkName } from '../endpoints/handlers/strict-decode.js';
import { managerOrUserAgent } from '../endpoints/handlers/write-options.js';
import type { GenericStore, RequestScope } from '../registry/generic/store.js';
import { createPrepared } from '../registry/generic/create.js';
import type { BootstrapRequest } from './bootstrap-objects.js';
import type { StoreRegistry } from '../registry/generic/registry.js';
import type { ResourceDef } from '../registry/rest/resource.js';
import { notFoundResource } from '../endpoints/installer.js';
import type { KubeList, KubeObject } from '../runtime/object.js';

export interface RegistryClientOptions {
  registry: StoreRegistry<ResourceDef>;
  admission: Admission;
  user: UserInfo;
  userAgent: string;
  /** For what is not a get, list, create or update: the loopback client of the same identity. */
  fallback: Client;
  /** What the create path would store for a request, made ahead (bootstrap-objects.ts): only admission and the write run. */
  prepared?: (r: BootstrapRequest) => KubeObject | undefined;
}

export function registryClient(o: RegistryClientOptions): Client {
  return {
    resource(group: string, resource: string, version?: string): ResourceClient {
      const def = version === undefined ? o.registry.scheme.resourceInGroup(group, resource) : o.registry.scheme.resource(group, version, resource);
      return new RegistryResourceClient(o, def, o.fallback.resource(group, resource, version));
    },
  };
}

/** What a client gets is its own: a JSON copy, as a decoded response body would be. */
const copied = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

class RegistryResourceClient implements ResourceClient {
  constructor(private readonly o: RegistryClientOptions, private readonly def: ResourceDef | undefined, private readonly fallback: ResourceClient) {}

  private store(): GenericStore {
    if (!this.def || this.def.virtual || this.def.read) throw notFoundResource();
    return this.o.registry.storeFor(this.def);
  }

  /** A request body as the JSON decoder leaves it. */
  private decoded(obj: KubeObject): KubeObject {
    const def = this.def!;
    const out = toKubeObject(def, copied(obj));
    dropUnknownFields(typeRefOf(def), out);
    return out;
  }

  private scope(opts: WriteOptions, subresource?: string): RequestScope {
    return {
      user: this.o.user, dryRun: !!opts.dryRun, admission: this.o.admission, subresource,
      fieldManager: managerOrUserAgent(opts.fieldManager ?? '', this.o.userAgent), warnings: [],
      admissionOptions: opts.fieldManager ? { fieldManager: opts.fieldManager } : {},
      coalesceCreates: true,
    };
  }

  async get(namespace: string, name: string): Promise<KubeObject> {
    return copied(await this.store().get(namespace, name));
  }

  async list(namespace: string, opts: ListOptions = {}): Promise<KubeList> {
    if (Object.keys(opts).length > 0) return this.fallback.list(namespace, opts);
    return copied(await this.store().list(namespace, {}));
  }

  async create(namespace: string, obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    const store = this.store();
    const scope = this.scope(opts);
    const { group, version, plural } = this.def!;
    const made = this.o.prepared?.({ group, version, plural, namespace, fieldManager: scope.fieldManager!, body: obj });
    const created = made && await createPrepared(store, namespace, made, scope);
    return copied(created ?? await store.create(namespace, this.decoded(obj), scope));
  }

  async update(namespace: string, obj: KubeObject, opts: WriteOptions & { subresource?: string } = {}): Promise<KubeObject> {
    const store = this.store();
    const name = obj.metadata.name ?? '';
    const desired = this.decoded(obj);
    checkName(desired, name, this.def!.namespaced ? namespace : '');
    return copied((await store.update(namespace, name, async () => desired, this.scope(opts, opts.subresource))).object);
  }

  patch(...args: Parameters<ResourceClient['patch']>): Promise<KubeObject> { return this.fallback.patch(...args); }
  delete(...args: Parameters<ResourceClient['delete']>): Promise<void> { return this.fallback.delete(...args); }
  deleteCollection(...args: Parameters<ResourceClient['deleteCollection']>): Promise<void> { return this.fallback.deleteCollection(...args); }
}
