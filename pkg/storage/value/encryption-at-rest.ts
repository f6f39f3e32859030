// The storage layer's view of --encryption-provider-config: given an etcd key, the
// transformer of the resource the key belongs to (exact resource, then `*.<group>`, then
// `*.*`, else values pass unchanged), as upstream's TransformerForResource. With
// --encryption-provider-config-automatic-reload the file is watched and, once a changed
// file loads and its KMS plugins answer, the new transformers replace the old ones; a
// broken file is logged and the old configuration stays.
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import type { ReadResult, Transformer } from './transformer.js';
import { aggregateCheck, buildEncryption, grKey, type BuiltEncryption, type HealthCheck } from './config/build.js';
import { contentHash, loadEncryptionConfig } from './config/load.js';
import type { GroupResource } from './config/types.js';
import { recordReload } from './metrics.js';

/** What the etcd store calls: the value's etcd key is the transformation's context. */
export interface ValueTransformer {
  fromStorage(key: Buffer, data: Buffer): Promise<ReadResult>;
  toStorage(key: Buffer, data: Buffer): Promise<Buffer>;
}

/** The group resource an etcd key belongs to (undefined: not a resource's key). */
export type ResourceOfKey = (key: string) => GroupResource | undefined;

export interface EncryptionOptions {
  path: string;
  reload: boolean;
  resourceOf: ResourceOfKey;
  log: { info(msg: string): void; error(msg: string, err: Error): void };
  /** How often the file is checked for changes besides file events (upstream: each minute). */
  pollMs?: number;
}

const passThrough = { data: Buffer.alloc(0), stale: false };

export class EncryptionAtRest implements ValueTransformer {
  private built: BuiltEncryption;
  private hash: string;
  private readonly byKeyRoot = new Map<string, Transformer | null>();
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private reloading = false;

  private constructor(private readonly o: EncryptionOptions, built: BuiltEncryption, hash: string) {
    this.built = built;
    this.hash = hash;
  }

  /** Loads the file; a bad file or configuration rejects with upstream's message. */
  static async start(o: EncryptionOptions): Promise<EncryptionAtRest> {
    const { config, hash } = loadEncryptionConfig(o.path, o.reload);
    const built = await buildEncryption(config, o.reload);
    const e = new EncryptionAtRest(o, built, hash);
    if (o.reload) e.watchFile();
    return e;
  }

  /** Health checks for /healthz and /readyz; with reload one "kms-providers" that follows the current file. */
  healthChecks(): HealthCheck[] {
    if (!this.o.reload) return this.built.healthChecks;
    return [{ name: 'kms-providers', check: () => aggregateCheck(this.built.healthChecks).check() }];
  }

  async fromStorage(key: Buffer, data: Buffer): Promise<ReadResult> {
    const t = this.transformerFor(key);
    if (!t) return { ...passThrough, data };
    return t.transformFromStorage(data, key);
  }

  async toStorage(key: Buffer, data: Buffer): Promise<Buffer> {
    const t = this.transformerFor(key);
    return t ? t.transformToStorage(data, key) : data;
  }

  stop(): void {
    this.watcher?.close();
    if (this.timer) clearInterval(this.timer);
    this.built.close();
  }

  private transformerFor(key: Buffer): Transformer | undefined {
    const k = key.toString();
    const root = k.slice(0, k.lastIndexOf('/') + 1);
    let t = this.byKeyRoot.get(root);
    if (t === undefined) {
      const gr = this.o.resourceOf(k);
      const m = this.built.transformers;
      t = (gr && (m.get(grKey(gr.group, gr.resource)) ?? m.get(grKey(gr.group, '*')) ?? m.get(grKey('*', '*')))) || null;
      this.byKeyRoot.set(root, t);
    }
    return t ?? undefined;
  }

  private watchFile(): void {
    const check = () => { void this.reloadIfChanged(); };
    try {
      this.watcher = watch(this.o.path, check);
      this.watcher.on('error', () => {});
    } catch {
      // The directory may be a mounted volume without file events; polling covers it.
    }
    this.timer = setInterval(check, this.o.pollMs ?? 60_000);
    this.timer.unref();
  }

  private async reloadIfChanged(): Promise<void> {
    if (this.reloading) return;
    this.reloading = true;
    try {
      let data: Buffer;
      try { data = readFileSync(this.o.path); } catch { return; }
      if (contentHash(data) === this.hash) return;
      let next: BuiltEncryption;
      let hash: string;
      try {
        const loaded = loadEncryptionConfig(this.o.path, true);
        hash = loaded.hash;
        next = await buildEncryption(loaded.config, true);
        // Upstream checks the new plugins answer before switching to them.
        await aggregateCheck(next.healthChecks).check().catch((err) => { next.close(); throw err; });
      } catch (err) {
        recordReload(false);
        this.o.log.error(`error processing encryption config file ${this.o.path}`, err as Error);
        return;
      }
      const old = this.built;
      this.built = next;
      this.hash = hash;
      this.byKeyRoot.clear();
      recordReload(true);
      this.o.log.info(`loaded new encryption configuration from ${this.o.path}`);
      // Requests in flight may still hold the old KMS clients for a moment.
      setTimeout(() => old.close(), 10_000).unref();
    } finally {
      this.reloading = false;
    }
  }
}
