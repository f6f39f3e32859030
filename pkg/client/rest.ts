// Resource requests as paths and bodies, over any transport that carries them (the
// in-process loopback, or HTTP). Answers other than 2xx are the server's Status,
// turned back into the StatusError it was made from.
import { StatusError, type Status, type StatusReason } from '../runtime/errors.js';
import { isPlainObject, type KubeList, type KubeObject } from '../runtime/object.js';
import type { Client, DeleteOptions, ListOptions, PatchType, ResourceClient, WriteOptions } from './interfaces.js';

export interface APIRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with its query string. */
  path: string;
  body?: unknown;
  contentType?: string;
}

export interface APIResponse {
  status: number;
  body: unknown;
}

export interface Transport {
  send(req: APIRequest): Promise<APIResponse>;
}

/** The version a group serves a resource at by default; undefined: not served. */
export type PreferredVersion = (group: string, resource: string) => string | undefined;

export class RESTClient implements Client {
  constructor(private readonly transport: Transport, private readonly preferredVersion: PreferredVersion) {}

  resource(group: string, resource: string, version?: string): ResourceClient {
    return new RESTResourceClient(this.transport, group, resource, version ?? (() => this.preferredVersion(group, resource)));
  }
}

class RESTResourceClient implements ResourceClient {
  constructor(
    private readonly transport: Transport,
    private readonly group: string,
    private readonly resource: string,
    private readonly version: string | (() => string | undefined),
  ) {}

  async get(namespace: string, name: string): Promise<KubeObject> {
    return this.call({ method: 'GET', path: this.path(namespace, name) }) as Promise<KubeObject>;
  }

  async list(namespace: string, opts: ListOptions = {}): Promise<KubeList> {
    return this.call({ method: 'GET', path: this.path(namespace, '', '', listQuery(opts)) }) as Promise<KubeList>;
  }

  async create(namespace: string, obj: KubeObject, opts: WriteOptions = {}): Promise<KubeObject> {
    return this.call({ method: 'POST', path: this.path(namespace, '', '', writeQuery(opts)), body: obj }) as Promise<KubeObject>;
  }

  async update(namespace: string, obj: KubeObject, opts: WriteOptions & { subresource?: string } = {}): Promise<KubeObject> {
    const path = this.path(namespace, obj.metadata.name ?? '', opts.subresource, writeQuery(opts));
    return this.call({ method: 'PUT', path, body: obj }) as Promise<KubeObject>;
  }

  async patch(namespace: string, name: string, type: PatchType, patch: unknown, opts: WriteOptions & { subresource?: string } = {}): Promise<KubeObject> {
    const path = this.path(namespace, name, opts.subresource, writeQuery(opts));
    return this.call({ method: 'PATCH', path, body: patch, contentType: type }) as Promise<KubeObject>;
  }

  async delete(namespace: string, name: string, opts: DeleteOptions = {}): Promise<void> {
    await this.call({ method: 'DELETE', path: this.path(namespace, name), body: deleteBody(opts) });
  }

  async deleteCollection(namespace: string, list: ListOptions = {}, opts: DeleteOptions = {}): Promise<void> {
    await this.call({ method: 'DELETE', path: this.path(namespace, '', '', listQuery(list)), body: deleteBody(opts) });
  }

  private path(namespace: string, name: string, subresource = '', query = ''): string {
    const version = typeof this.version === 'string' ? this.version : this.version();
    if (!version) {
      throw new StatusError(404, 'NotFound', `the server could not find the requested resource (${this.group ? `${this.resource}.${this.group}` : this.resource})`);
    }
    let p = this.group ? `/apis/${this.group}/${version}` : `/api/${version}`;
    if (namespace) p += `/namespaces/${encodeURIComponent(namespace)}`;
    p += `/${this.resource}`;
    if (name) p += `/${encodeURIComponent(name)}`;
    if (subresource) p += `/${subresource}`;
    return query ? `${p}?${query}` : p;
  }

  private async call(req: APIRequest): Promise<unknown> {
    const res = await this.transport.send(req);
    if (res.status >= 200 && res.status < 300) return res.body;
    throw statusErrorOf(res);
  }
}

function listQuery(o: ListOptions): string {
  const q = new URLSearchParams();
  if (o.labelSelector) q.set('labelSelector', o.labelSelector);
  if (o.fieldSelector) q.set('fieldSelector', o.fieldSelector);
  if (o.limit) q.set('limit', String(o.limit));
  if (o.continue) q.set('continue', o.continue);
  if (o.resourceVersion !== undefined) q.set('resourceVersion', o.resourceVersion);
  return q.toString();
}

function writeQuery(o: WriteOptions): string {
  const q = new URLSearchParams();
  if (o.fieldManager) q.set('fieldManager', o.fieldManager);
  if (o.dryRun) q.set('dryRun', 'All');
  return q.toString();
}

function deleteBody(o: DeleteOptions): object {
  return { kind: 'DeleteOptions', apiVersion: 'v1', ...o };
}

/** The server's Status as the error it was; anything else as an internal error carrying the code. */
export function statusErrorOf(res: APIResponse): StatusError {
  const b = res.body;
  if (isPlainObject(b) && b.kind === 'Status') {
    const s = b as unknown as Status;
    return new StatusError(s.code || res.status, s.reason ?? '', s.message ?? '', s.details);
  }
  const reason: StatusReason = res.status === 404 ? 'NotFound' : 'InternalError';
  return new StatusError(res.status, reason, `the server responded with status ${res.status}`);
}
