// An EncryptionConfiguration made into transformers per group resource and the KMS
// plugins' health checks, as upstream's LoadEncryptionConfig: providers in file order
// (the first writes), the same resource in several entries gets their providers in
// order, and an entry masked by an earlier `*.group` or `*.*` is an error.
import { PrefixTransformers, type PrefixTransformer, type Transformer } from '../transformer.js';
import { identityTransformer } from '../encrypt/identity/identity.js';
import { CBCTransformer } from '../encrypt/aes/cbc.js';
import { GCMTransformer } from '../encrypt/aes/gcm.js';
import { SecretboxTransformer } from '../encrypt/secretbox/secretbox.js';
import { KMSv1Service, KMSv1Transformer } from '../encrypt/envelope/kms-v1.js';
import { KMSv2Provider } from '../encrypt/envelope/kms-v2.js';
import { groupResourceString, parseGroupResource, type EncryptionConfiguration, type Key, type ProviderConfiguration } from './types.js';
import { EncryptionConfigError } from './load.js';

export interface HealthCheck { name: string; check(): Promise<void> }

/** Upstream: the probes' last answer is reused for 20 s when healthy, 3 s when not. */
const positiveTtlMs = 20_000;
const negativeTtlMs = 3_000;
/** KMS v2 Status polling (which also rotates the write DEK): each minute, every 10 s while failing. */
const v2PollMs = 60_000;
const v2FailingPollMs = 10_000;

export interface BuiltEncryption {
  /** By `group/resource` ("/secrets", "apps/*", "*\/*"). */
  transformers: Map<string, Transformer>;
  /** One per KMS plugin (kms-provider-N), or one "kms-providers" for all. */
  healthChecks: HealthCheck[];
  close(): void;
}

class Probe {
  private last: { err?: Error; at: number; ttl: number } = { at: 0, ttl: 0 };

  constructor(readonly name: string, private readonly run: () => Promise<void>) {}

  async check(): Promise<void> {
    if (Date.now() - this.last.at < this.last.ttl) {
      if (this.last.err) throw this.last.err;
      return;
    }
    try {
      await this.run();
      this.last = { at: Date.now(), ttl: positiveTtlMs };
    } catch (err) {
      this.last = { err: err as Error, at: Date.now(), ttl: negativeTtlMs };
      throw err;
    }
  }
}

export function grKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

export async function buildEncryption(config: EncryptionConfiguration, reload: boolean): Promise<BuiltEncryption> {
  const lists = new Map<string, PrefixTransformer[]>();
  const probes: Probe[] = [];
  const closers: Array<() => void> = [];
  const timers: NodeJS.Timeout[] = [];
  let v1Used = false;
  let v2Used = false;
  try {
    for (const rc of config.resources) {
      const providers: PrefixTransformer[] = [];
      for (const p of rc.providers) {
        const built = await providerTransformer(p);
        providers.push(built.prefixed);
        if (built.probe) probes.push(built.probe);
        if (built.close) closers.push(built.close);
        if (built.poll) timers.push(built.poll);
        v1Used ||= p.kms?.apiVersion === 'v1';
        v2Used ||= p.kms?.apiVersion === 'v2';
      }
      for (const res of rc.resources) {
        const gr = parseGroupResource(res);
        for (const mask of [{ group: gr.group, resource: '*' }, { group: '*', resource: '*' }]) {
          if (lists.has(grKey(mask.group, mask.resource))) {
            throw new EncryptionConfigError(`error while building transformers: resource "${groupResourceString(gr)}" is masked by earlier rule "${groupResourceString(mask)}"`);
          }
        }
        lists.set(grKey(gr.group, gr.resource), [...(lists.get(grKey(gr.group, gr.resource)) ?? []), ...providers]);
      }
    }
  } catch (err) {
    for (const t of timers) clearInterval(t);
    for (const c of closers) c();
    throw err;
  }
  const transformers = new Map([...lists].map(([k, list]) => [k, new PrefixTransformers(list, 'no matching prefix found', true) as Transformer]));
  let healthChecks: HealthCheck[] = probes.map((p, i) => ({ name: `kms-provider-${i}`, check: () => p.check() }));
  if (reload || (v2Used && !v1Used)) healthChecks = [aggregateCheck(healthChecks)];
  return {
    transformers, healthChecks,
    close: () => { for (const t of timers) clearInterval(t); for (const c of closers) c(); },
  };
}

/** Upstream's "kms-providers": every plugin's check, failures listed by check name. */
export function aggregateCheck(checks: HealthCheck[]): HealthCheck {
  return {
    name: 'kms-providers',
    check: async () => {
      const errors: string[] = [];
      for (const c of checks) {
        try { await c.check(); } catch (err) { errors.push(`${c.name}: ${(err as Error).message}`); }
      }
      if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    },
  };
}

interface BuiltProvider { prefixed: PrefixTransformer; probe?: Probe; close?: () => void; poll?: NodeJS.Timeout }

function keyed(keys: Key[], make: (secret: Buffer) => Transformer, noMatch: string): Transformer {
  return new PrefixTransformers(keys.map((k) => ({ prefix: Buffer.from(`${k.name}:`), transformer: make(Buffer.from(k.secret, 'base64')) })), noMatch);
}

async function providerTransformer(p: ProviderConfiguration): Promise<BuiltProvider> {
  const prefixed = (prefix: string, transformer: Transformer) => ({ prefix: Buffer.from(prefix), transformer });
  if (p.aesgcm) return { prefixed: prefixed('k8s:enc:aesgcm:v1:', keyed(p.aesgcm.keys, (k) => new GCMTransformer(k), 'no matching key was found for the provided AES transformer')) };
  if (p.aescbc) return { prefixed: prefixed('k8s:enc:aescbc:v1:', keyed(p.aescbc.keys, (k) => new CBCTransformer(k), 'no matching key was found for the provided AES transformer')) };
  if (p.secretbox) {
    return { prefixed: prefixed('k8s:enc:secretbox:v1:', keyed(p.secretbox.keys, (k) => new SecretboxTransformer(k), 'no matching key was found for the provided Secretbox transformer')) };
  }
  if (p.identity) return { prefixed: { prefix: Buffer.alloc(0), transformer: identityTransformer } };
  const kms = p.kms!;
  if (kms.apiVersion === 'v1') {
    const service = new KMSv1Service(kms.endpoint, kms.name, kms.timeoutMs);
    return {
      prefixed: prefixed(`k8s:enc:kms:v1:${kms.name}:`, new KMSv1Transformer(service, kms.cachesize ?? 1000)),
      probe: new Probe(kms.name, () => service.check()),
      close: () => service.client.close(),
    };
  }
  const provider = new KMSv2Provider(kms.endpoint, kms.name, kms.timeoutMs);
  const probe = new Probe(kms.name, () => provider.check());
  // The first Status primes the key ID and write DEK; a plugin that starts after the
  // server is picked up by the polling.
  let failing = await probe.check().then(() => false, () => true);
  let next = Date.now() + (failing ? v2FailingPollMs : v2PollMs);
  const poll = setInterval(() => {
    if (Date.now() < next) return;
    void probe.check().then(() => false, () => true).then((f) => { failing = f; next = Date.now() + (failing ? v2FailingPollMs : v2PollMs); });
    next = Number.POSITIVE_INFINITY;
  }, 1000);
  poll.unref();
  return { prefixed: prefixed(`k8s:enc:kms:v2:${kms.name}:`, provider), probe, close: () => provider.close(), poll };
}
