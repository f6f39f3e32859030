// The webhook configurations of one kind, from this replica's shared informer (so a
// change made through any replica reaches every replica as its watch event arrives).
// Each configuration is compiled once per resourceVersion: rules into sets, selectors
// parsed, the URL split, an HTTPS client with its own agent. Hooks are indexed by the
// resource names their rules mention, so a request no webhook names costs one lookup.
import type { KubeObject } from '../../../runtime/object.js';
import type { LabelSelector } from '../../../apis/meta/labels.js';
import { WebhookClient, type Endpoint } from '../../../util/webhook/client.js';
import { resolveClientConfig, type ServiceLookup } from '../../../util/webhook/endpoint.js';
import type { CredentialResolver } from './auth.js';
import { compileRules, ruleResourceNames, type RuleMatcher } from './matching.js';
import { compileMatchConditions, type MatchConditionEvaluator } from './matchconditions.js';
import { negotiateReviewVersion, type ReviewVersion } from './review.js';
import { compileSelector } from './selectors.js';
import type { WebhookSpec } from './types.js';

/** The slice of the shared informer this needs. */
export interface ConfigurationInformer {
  addHandlers(h: { add?(o: KubeObject): void; update?(o: KubeObject, old: KubeObject): void; delete?(o: KubeObject): void }): void;
  list(): KubeObject[];
  hasSynced(): boolean;
  waitForSync(): Promise<void>;
}

export interface CompiledHook {
  /** Unique across configurations: reinvocation bookkeeping keys on it. */
  uid: string;
  /** Position among all webhooks of the plugin (audit annotation keys use it). */
  index: number;
  /** Resource names its rules mention, `*` included. */
  resourceNames: ReadonlySet<string>;
  configurationName: string;
  name: string;
  spec: WebhookSpec;
  rules: RuleMatcher;
  equivalent: boolean;
  objectSelector: LabelSelector | null;
  namespaceSelector: LabelSelector | null;
  reviewVersion: ReviewVersion | undefined;
  timeoutSeconds: number;
  failOpen: boolean;
  reinvoke: boolean;
  client: WebhookClient;
  /** Where to send the review now (a Service is looked up on every call). */
  endpoint(): Endpoint;
  /** undefined: no conditions, or no compiler installed yet. */
  matchConditions(): MatchConditionEvaluator | undefined;
  /** Set when the stored webhook could not be compiled (an invalid selector or URL). */
  compileError?: Error;
}

interface CompiledConfiguration {
  resourceVersion: string;
  hooks: CompiledHook[];
}

export class WebhookConfigurations {
  private compiled = new Map<string, CompiledConfiguration>();
  private current: readonly CompiledHook[] = [];
  private byResource = new Map<string, readonly CompiledHook[]>();
  private dirty = true;

  /**
   * `equivalentNames(resource)`: the other names the same stored resource is served
   * under (matchPolicy Equivalent may reach a hook through them).
   */
  constructor(private readonly informer: ConfigurationInformer, private readonly credentials: CredentialResolver,
    private readonly services: ServiceLookup, private readonly equivalentNames: (resource: string) => readonly string[] = () => []) {
    const mark = () => { this.dirty = true; };
    informer.addHandlers({ add: mark, update: mark, delete: mark });
  }

  hasSynced(): boolean {
    return this.informer.hasSynced();
  }

  waitForSync(): Promise<void> {
    return this.informer.waitForSync();
  }

  /** Every webhook, configurations in name order (as upstream sorts them). */
  hooks(): readonly CompiledHook[] {
    if (this.dirty) this.rebuild();
    return this.current;
  }

  /**
   * The hooks whose rules could match a request for `resource`, in order: the common
   * case (no hook names it) is one map lookup returning an empty list.
   */
  candidates(resource: string): readonly CompiledHook[] {
    if (this.dirty) this.rebuild();
    let list = this.byResource.get(resource);
    if (!list) {
      const aliases = this.equivalentNames(resource);
      list = this.current.filter((h) => h.resourceNames.has('*') || h.resourceNames.has(resource)
        || (h.equivalent && aliases.some((a) => h.resourceNames.has(a))));
      this.byResource.set(resource, list);
    }
    return list;
  }

  private rebuild(): void {
    this.dirty = false;
    // Byte order, as Go's sort of configuration names.
    const configs = this.informer.list().sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const next = new Map<string, CompiledConfiguration>();
    const all: CompiledHook[] = [];
    for (const cfg of configs) {
      const key = cfg.metadata.uid ?? cfg.metadata.name ?? '';
      const rv = cfg.metadata.resourceVersion ?? '';
      let c = this.compiled.get(key);
      if (!c || c.resourceVersion !== rv) c = { resourceVersion: rv, hooks: this.compileConfiguration(cfg) };
      next.set(key, c);
      all.push(...c.hooks);
    }
    for (const [key, old] of this.compiled) {
      if (next.get(key) !== old) for (const h of old.hooks) h.client.close();
    }
    all.forEach((h, i) => { h.index = i; });
    this.compiled = next;
    this.current = all;
    this.byResource = new Map();
  }

  private compileConfiguration(cfg: KubeObject): CompiledHook[] {
    const configurationName = cfg.metadata.name ?? '';
    const specs = (Array.isArray(cfg.webhooks) ? cfg.webhooks : []) as WebhookSpec[];
    return specs.map((spec, i) => this.compileHook(configurationName, `${cfg.metadata.uid ?? configurationName}/${i}`, spec));
  }

  private compileHook(configurationName: string, uid: string, spec: WebhookSpec): CompiledHook {
    try {
      return this.compileValidHook(configurationName, uid, spec);
    } catch (err) {
      // Validation keeps this from happening; if a stored object slips through, requests
      // its rules match fail with the reason instead of every request failing.
      const broken = this.compileValidHook(configurationName, uid, { ...spec, clientConfig: { url: 'https://invalid.' }, objectSelector: {}, namespaceSelector: {} });
      broken.compileError = err instanceof Error ? err : new Error(String(err));
      return broken;
    }
  }

  private compileValidHook(configurationName: string, uid: string, spec: WebhookSpec): CompiledHook {
    const { endpoint, credentialTarget } = resolveClientConfig(spec.clientConfig ?? {}, this.services);
    let evaluator: MatchConditionEvaluator | undefined;
    let compiledConditions = false;
    return {
      uid,
      index: 0,
      resourceNames: ruleResourceNames(spec.rules),
      configurationName,
      name: spec.name,
      spec,
      rules: compileRules(spec.rules),
      equivalent: (spec.matchPolicy ?? 'Equivalent') === 'Equivalent',
      objectSelector: compileSelector(spec.objectSelector),
      namespaceSelector: compileSelector(spec.namespaceSelector),
      reviewVersion: negotiateReviewVersion(spec.admissionReviewVersions),
      timeoutSeconds: spec.timeoutSeconds ?? 10,
      failOpen: spec.failurePolicy === 'Ignore',
      reinvoke: spec.reinvocationPolicy === 'IfNeeded',
      client: new WebhookClient(spec.clientConfig?.caBundle, this.credentials(credentialTarget)),
      endpoint,
      matchConditions: () => {
        // Compiled on first use, so a compiler installed after start-up still applies.
        if (!compiledConditions) {
          evaluator = compileMatchConditions(spec.matchConditions);
          compiledConditions = evaluator !== undefined || !spec.matchConditions?.length;
        }
        return evaluator;
      },
    };
  }
}
