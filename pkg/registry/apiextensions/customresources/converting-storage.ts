// A served version's view of its custom resources' storage (upstream does this in the
// storage codec of each version): objects are written in the CRD's storage version and
// read in the served one, through the CRD's converter (None, or a conversion webhook,
// hence asynchronous). Lists convert in one call; watch events one at a time, in order.
// Predicates see stored objects: custom resources select only on metadata, which
// conversion keeps.
import type { KubeObject } from '../../../runtime/object.js';
import type {
  GetOptions, ListOptions, ListResult, Preconditions, Storage, TryUpdate, WatchEvent, WatchOptions, WatchStream, WriteOptions,
} from '../../../storage/interfaces.js';

/** How objects move between a CRD's versions (pkg/apiextensions/conversion). */
export interface Converter {
  /** Converts each object to `toAPIVersion`; objects already there come back as they are. */
  convert(objects: KubeObject[], toAPIVersion: string, opts?: { listKind?: string }): Promise<KubeObject[]>;
}

export class ConvertingStorage implements Storage {
  constructor(private readonly inner: Storage, private readonly converter: Converter,
    private readonly servedAPIVersion: string, private readonly storageAPIVersion: string, private readonly listKind: string) {}

  private async one(obj: KubeObject, to: string): Promise<KubeObject> {
    if (obj.apiVersion === to) return obj;
    return (await this.converter.convert([obj], to))[0]!;
  }

  private toServed(obj: KubeObject): Promise<KubeObject> { return this.one(obj, this.servedAPIVersion); }
  private toStored(obj: KubeObject): Promise<KubeObject> { return this.one(obj, this.storageAPIVersion); }

  async create(key: string, obj: KubeObject, opts?: WriteOptions): Promise<KubeObject> {
    return this.toServed(await this.inner.create(key, await this.toStored(obj), opts));
  }

  async get(key: string, opts?: GetOptions): Promise<KubeObject> {
    return this.toServed(await this.inner.get(key, opts));
  }

  async list(prefix: string, opts: ListOptions): Promise<ListResult> {
    const res = await this.inner.list(prefix, opts);
    if (res.items.every((o) => o.apiVersion === this.servedAPIVersion)) return res;
    return { ...res, items: await this.converter.convert(res.items, this.servedAPIVersion, { listKind: this.listKind }) };
  }

  async guaranteedUpdate(key: string, preconditions: Preconditions | undefined, tryUpdate: TryUpdate,
    ignoreNotFound?: boolean, opts?: WriteOptions): Promise<{ object: KubeObject; created: boolean }> {
    const res = await this.inner.guaranteedUpdate(key, preconditions, async (current) => {
      // A missing key arrives as an empty object (create on update): nothing to convert.
      const served = current.metadata?.uid ? await this.toServed(current) : current;
      const next = await tryUpdate(served);
      return next && this.toStored(next);
    }, ignoreNotFound, opts);
    return { ...res, object: await this.toServed(res.object) };
  }

  async delete(key: string, preconditions?: Preconditions, validateDeletion?: (current: KubeObject) => Promise<void>,
    cachedExisting?: KubeObject): Promise<KubeObject> {
    const check = validateDeletion && (async (current: KubeObject) => validateDeletion(await this.toServed(current)));
    return this.toServed(await this.inner.delete(key, preconditions, check, cachedExisting));
  }

  async watch(key: string, opts: WatchOptions): Promise<WatchStream> {
    const inner = await this.inner.watch(key, opts);
    const convert = async (e: WatchEvent): Promise<WatchEvent> => {
      if (e.type === 'BOOKMARK' || e.type === 'ERROR') return e;
      return { ...e, object: await this.toServed(e.object) };
    };
    return {
      stop: () => inner.stop(),
      async *[Symbol.asyncIterator]() {
        for await (const e of inner) yield await convert(e);
      },
    };
  }

  count(prefix: string): Promise<number> { return this.inner.count(prefix); }
  currentRevision(): Promise<string> { return this.inner.currentRevision(); }
}
