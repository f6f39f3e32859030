// PodSecurity: the Pod Security Standards (k8s.io/pod-security-admission, v1.28) applied
// per namespace through the pod-security.kubernetes.io/{enforce,audit,warn}[-version]
// labels. Pods are refused by the enforce level; pods and pod templates of workload
// resources get Warning headers from the warn level and audit annotations from the audit
// level. A namespace's labels must parse, and tightening its enforce level warns about
// the pods already there that the new level would refuse.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { errors, fieldErrorMessage, type FieldError, type StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import {
  auditViolationsAnnotation, compareLevels, enforcePolicyAnnotation, exemptAnnotation, fullyPrivileged, labelPrefix,
  latest, levelLabel, levelVersionString, modes, policyToEvaluate, sameLevelVersion, versionLabel,
  type LevelVersion, type Policy,
} from './api.js';
import { parseConfiguration, type PodSecurityConfig } from './config.js';
import { Evaluator, forbiddenDetail, forbiddenReason, type Aggregate } from './evaluator.js';
import { noMetrics, type Recorder } from './metrics.js';
import { extractTemplate, hasPodTemplate, isSignificantPodUpdate, podTemplateResources, podView, type PodView } from './podspec.js';

export const pluginName = 'PodSecurity';

export interface PodSecuritySources {
  /** The namespace, from the watch-fed cache or else storage; undefined when it does not exist. */
  namespace(name: string): Promise<KubeObject | undefined>;
  /** The pods of a namespace as the cache has them. */
  pods(namespace: string): Promise<KubeObject[]>;
}

export interface PodSecurityOptions {
  maxPodsToCheck?: number;
  podCheckTimeoutMs?: number;
  metrics?: Recorder;
}

// Subresources that cannot change a pod's spec; any other (ephemeralcontainers) is evaluated.
const ignoredPodSubresources = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

interface Verdict {
  warnings: string[];
  annotations: Record<string, string>;
  deny?: string;
}

export class PodSecurity implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/namespaces', '/pods', ...podTemplateResources]);
  private readonly config: PodSecurityConfig;
  private readonly evaluator = new Evaluator();
  private readonly metrics: Recorder;

  constructor(private readonly sources: PodSecuritySources, rawConfig?: unknown, private readonly o: PodSecurityOptions = {}) {
    this.config = parseConfiguration(rawConfig);
    this.metrics = o.metrics ?? noMetrics;
  }

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.group === '' && a.resource === 'namespaces') return this.validateNamespace(a);
    if (a.group === '' && a.resource === 'pods') return this.validatePod(a);
    if (hasPodTemplate(a.group, a.resource)) return this.validatePodController(a);
  }

  private policyOf(ns: KubeObject): { policy: Policy; errors: FieldError[] } {
    return policyToEvaluate(ns.metadata.labels, this.config.defaults);
  }

  private async validateNamespace(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || !a.object) return;
    const name = a.object.metadata.name ?? a.name;
    const next = this.policyOf(a.object);
    const invalid = (): StatusError => errors.invalid('', 'Namespace', name, next.errors);
    if (a.operation === 'CREATE') {
      if (next.errors.length > 0) throw invalid();
      if (this.exemptNamespace(name)) this.warnExemptNamespace(a, name, next.policy, a.object.metadata.labels ?? {});
      return;
    }
    if (!a.oldObject) return;
    const prev = this.policyOf(a.oldObject);
    const messages = (errs: FieldError[]) => errs.map((e) => fieldErrorMessage(e)).join('\n');
    if (next.errors.length > 0 && (prev.errors.length === 0 || messages(next.errors) !== messages(prev.errors))) throw invalid();
    const [enforce, was] = [next.policy.enforce, prev.policy.enforce];
    // Existing pods are only dry-run against an enforce level that got stricter or changed version.
    if (sameLevelVersion(enforce, was) || enforce.level === 'privileged') return;
    if (enforce.version === was.version && compareLevels(enforce.level, was.level) < 1) return;
    if (this.exemptNamespace(name)) {
      this.warnExemptNamespace(a, name, next.policy, a.object.metadata.labels ?? {});
      return;
    }
    a.warnings?.push(...await this.evaluatePodsInNamespace(name, enforce));
  }

  private async validatePod(a: AdmissionAttributes): Promise<void> {
    if (ignoredPodSubresources.has(a.subresource) || !a.object) return;
    if (this.exempted(a)) return;
    const ns = await this.namespaceOf(a, true);
    if (!ns) return;
    const { policy, errors: labelErrors } = this.policyOf(ns);
    if (labelErrors.length === 0 && fullyPrivileged(policy)) {
      this.metrics.evaluation('allow', policy.enforce, 'enforce', a);
      this.annotate(a, { [enforcePolicyAnnotation]: levelVersionString({ level: 'privileged', version: latest }) });
      return;
    }
    if (a.operation === 'UPDATE' && a.oldObject && !isSignificantPodUpdate(a.object, a.oldObject)) return;
    this.apply(a, this.evaluate(a, policy, labelErrors, podView(a.object), true));
  }

  private async validatePodController(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || !a.object) return;
    if (this.exempted(a)) return;
    const ns = await this.namespaceOf(a, false);
    if (!ns) return;
    const { policy, errors: labelErrors } = this.policyOf(ns);
    if (labelErrors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return;
    const view = extractTemplate(a.group, a.resource, a.object);
    if (!view) return;
    this.apply(a, this.evaluate(a, policy, labelErrors, view, false));
  }

  /** Exempt namespaces and users skip evaluation; the audit record says which exemption applied. */
  private exempted(a: AdmissionAttributes): boolean {
    const why = this.exemptNamespace(a.namespace) ? 'namespace' : this.exemptUser(a.user.name) ? 'user' : undefined;
    if (why) {
      this.metrics.exemption(a);
      this.annotate(a, { [exemptAnnotation]: why });
    }
    return why !== undefined;
  }

  private async namespaceOf(a: AdmissionAttributes, forPod: boolean): Promise<KubeObject | undefined> {
    let ns: KubeObject | undefined;
    let failure: unknown;
    try {
      ns = await this.sources.namespace(a.namespace);
    } catch (err) {
      failure = err;
    }
    if (ns) return ns;
    this.metrics.error(true, a);
    if (forPod) throw errors.internal(new Error(`failed to lookup namespace ${JSON.stringify(a.namespace)}`));
    // Templates are never refused for this: the audit record carries the failure instead.
    const why = failure instanceof Error ? failure.message : `namespaces "${a.namespace}" not found`;
    this.annotate(a, { error: `failed to lookup namespace ${JSON.stringify(a.namespace)}: ${why}` });
    return undefined;
  }

  private evaluate(a: AdmissionAttributes, policy: Policy, labelErrors: FieldError[], view: PodView, enforce: boolean): Verdict {
    const out: Verdict = { warnings: [], annotations: {} };
    const runtimeClass = typeof view.spec.runtimeClassName === 'string' ? view.spec.runtimeClassName : '';
    if (runtimeClass !== '' && this.config.exemptions.runtimeClasses.includes(runtimeClass)) {
      this.metrics.exemption(a);
      out.annotations[exemptAnnotation] = 'runtimeClass';
      return out;
    }
    if (labelErrors.length > 0) {
      const list = labelErrors.map((e) => fieldErrorMessage(e));
      this.metrics.error(false, a);
      out.annotations.error = `Failed to parse policy: ${list.length === 1 ? list[0] : `[${list.join(', ')}]`}`;
    }
    // Modes sharing a level and version share one evaluation.
    const cache = new Map<string, Aggregate>();
    const evaluate = (lv: LevelVersion): Aggregate => {
      const key = levelVersionString(lv);
      let r = cache.get(key);
      if (!r) {
        r = this.evaluator.evaluate(lv, view.meta, view.spec);
        cache.set(key, r);
      }
      return r;
    };
    if (enforce) {
      out.annotations[enforcePolicyAnnotation] = levelVersionString(policy.enforce);
      const r = evaluate(policy.enforce);
      if (!r.allowed) out.deny = `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(r)}`;
      this.metrics.evaluation(r.allowed ? 'allow' : 'deny', policy.enforce, 'enforce', a);
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) {
      this.metrics.evaluation('deny', policy.audit, 'audit', a);
      out.annotations[auditViolationsAnnotation] = `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audit)}`;
    }
    // A request about to be refused gets no warnings on top.
    if (out.deny === undefined) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) {
        out.warnings.push(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`);
        this.metrics.evaluation('deny', policy.warn, 'warn', a);
      }
    }
    return out;
  }

  private apply(a: AdmissionAttributes, v: Verdict): void {
    this.annotate(a, v.annotations);
    a.warnings?.push(...v.warnings);
    if (v.deny !== undefined) {
      const name = a.name || a.object?.metadata.name || '';
      throw errors.forbidden({ group: a.group, resource: a.resource }, name, v.deny);
    }
  }

  private annotate(a: AdmissionAttributes, annotations: Record<string, string>): void {
    if (!a.auditAnnotations) return;
    for (const [k, v] of Object.entries(annotations)) a.auditAnnotations[labelPrefix + k] = v;
  }

  private async evaluatePodsInNamespace(namespace: string, enforce: LevelVersion): Promise<string[]> {
    const deadline = Date.now() + (this.o.podCheckTimeoutMs ?? 1000);
    const max = this.o.maxPodsToCheck ?? 3000;
    let pods: KubeObject[];
    try {
      pods = await this.sources.pods(namespace);
    } catch {
      return ['failed to list pods while checking new PodSecurity enforce level'];
    }
    const candidates = this.prioritize(pods);
    const total = candidates.length;
    const toCheck = candidates.slice(0, max);
    let checked = toCheck.length;
    const order: string[] = [];
    const counts = new Map<string, { podName: string; count: number }>();
    for (let i = 0; i < toCheck.length; i++) {
      const pod = toCheck[i];
      const view = podView(pod);
      const r = this.evaluator.evaluate(enforce, view.meta, view.spec);
      if (!r.allowed) {
        const warning = forbiddenReason(r);
        const name = pod.metadata.name ?? '';
        const c = counts.get(warning);
        if (!c) {
          order.push(warning);
          counts.set(warning, { podName: name, count: 1 });
        } else {
          if (name < c.podName) c.podName = name;
          c.count++;
        }
      }
      if (Date.now() > deadline) {
        checked = i + 1;
        break;
      }
    }
    const warnings: string[] = [];
    if (checked < total) warnings.push(`new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`);
    if (order.length > 0) {
      warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`);
    }
    const perPod = order.map((w) => {
      const { podName, count } = counts.get(w)!;
      if (count === 1) return `${podName}: ${w}`;
      return `${podName} (and ${count - 1} other ${count === 2 ? 'pod' : 'pods'}): ${w}`;
    }).sort();
    return [...warnings, ...perPod];
  }

  /** Pods of exempt runtime classes are skipped; replicas of an already-seen controller go last. */
  private prioritize(pods: KubeObject[]): KubeObject[] {
    const first: KubeObject[] = [];
    const rest: KubeObject[] = [];
    const seen = new Set<string>();
    for (const pod of pods) {
      const runtimeClass = (pod.spec as { runtimeClassName?: unknown } | undefined)?.runtimeClassName;
      if (typeof runtimeClass === 'string' && runtimeClass !== '' && this.config.exemptions.runtimeClasses.includes(runtimeClass)) continue;
      const controller = (pod.metadata.ownerReferences ?? []).find((r) => r.controller === true);
      if (!controller) { first.push(pod); continue; }
      if (seen.has(controller.uid)) { rest.push(pod); continue; }
      seen.add(controller.uid);
      first.push(pod);
    }
    return [...first, ...rest];
  }

  private exemptNamespace(ns: string): boolean {
    return ns !== '' && this.config.exemptions.namespaces.includes(ns);
  }

  private exemptUser(user: string): boolean {
    return user !== '' && this.config.exemptions.usernames.includes(user);
  }

  /** An exempt namespace labeled with a non-privileged policy is told the labels are ignored. */
  private warnExemptNamespace(a: AdmissionAttributes, name: string, policy: Policy, labels: Record<string, string>): void {
    const defaults = this.config.defaults;
    const equivalent = modes.every((m) => policy[m].level === defaults[m].level
      && (policy[m].level === 'privileged' || policy[m].version === defaults[m].version));
    if (fullyPrivileged(policy) || equivalent) return;
    const parts = modes
      .filter((m) => policy[m].level !== 'privileged' && (levelLabel(m) in labels || versionLabel(m) in labels))
      .map((m) => `${m}=${levelVersionString(policy[m])}`);
    a.warnings?.push(`namespace ${JSON.stringify(name)} is exempt from Pod Security, and the policy (${parts.join(', ')}) will be ignored`);
  }
}
