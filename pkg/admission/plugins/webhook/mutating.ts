// MutatingAdmissionWebhook: webhooks called one after another, each seeing the previous
// ones' patches. A JSON patch is applied to the object as the webhook saw it (converted
// back when it was called for an equivalent version) and written into attrs.object in
// place, so the store's validation that follows judges the patched object.
// reinvocationPolicy IfNeeded: when a later webhook changes the object, the earlier
// IfNeeded webhooks are called once more (round 1). Upstream also re-runs the built-in
// mutating plugins in that round; here only the webhooks are re-run.
import { isDeepStrictEqual } from 'node:util';
import { applyJsonPatch, type JsonMap } from '../../../apis/meta/patch/index.js';
import { errors } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { CallingWebhookError } from './client.js';
import {
  callWebhook, checkDryRun, denial, DenialError, failClosed, matchTarget, observe, recordResult, shouldCall, versioned,
  type DispatchDeps, type Invocation,
} from './dispatch.js';
import { isExemptConfigurationResource } from './matching.js';
import { waitForReady } from './ready.js';
import type { CompiledHook, WebhookConfigurations } from './source.js';

interface ReinvocationState {
  /** IfNeeded hooks called since the object last changed. */
  invokedSinceChange: Set<string>;
  /** IfNeeded hooks that saw an object a later hook changed. */
  reinvoke: Set<string>;
}

export class MutatingWebhook implements AdmissionPlugin {
  readonly name = 'MutatingAdmissionWebhook';

  constructor(private readonly source: WebhookConfigurations, private readonly d: DispatchDeps) {}

  handles(_op: Operation): boolean {
    return true;
  }

  // No webhook for the resource (most writes): answered without a promise.
  admit(attrs: AdmissionAttributes): Promise<void> | void {
    if (isExemptConfigurationResource(attrs) || (this.source.hasSynced() && this.source.candidates(attrs.resource).length === 0)) return;
    return this.admitByHooks(attrs);
  }

  private async admitByHooks(attrs: AdmissionAttributes): Promise<void> {
    await waitForReady(this.source, attrs);
    const hooks = this.source.candidates(attrs.resource);
    const state: ReinvocationState = { invokedSinceChange: new Set(), reinvoke: new Set() };
    const changed = await this.round(0, hooks, attrs, state);
    if (changed && state.reinvoke.size > 0) await this.round(1, hooks, attrs, state);
  }

  private async round(round: number, hooks: readonly CompiledHook[], attrs: AdmissionAttributes,
    state: ReinvocationState): Promise<boolean> {
    let anyChange = false;
    for (const hook of hooks) {
      // A hook skipped in round 0 is never called for the first time in round 1.
      if (round === 1 && !state.reinvoke.has(hook.uid)) continue;
      const inv = matchTarget(hook, attrs, this.d);
      if (!inv || !await shouldCall(inv, attrs, this.d)) continue;
      const started = performance.now();
      let changed = false;
      let failure: unknown;
      try {
        changed = await this.call(inv, attrs, round, hook.index);
      } catch (err) {
        failure = err;
      }
      observe(this.d.metrics, 'admit', hook, attrs, started, failure);
      if (changed) {
        anyChange = true;
        for (const uid of state.invokedSinceChange) state.reinvoke.add(uid);
        state.invokedSinceChange.clear();
      }
      if (hook.reinvoke) state.invokedSinceChange.add(hook.uid);
      if (failure === undefined) continue;
      if (failure instanceof CallingWebhookError) {
        if (hook.failOpen) {
          this.d.metrics.failedOpen(hook.name, 'admit');
          annotate(attrs, `failed-open.mutation.webhook.admission.k8s.io/round_${round}_index_${hook.index}`, hook.name);
          continue;
        }
        throw failClosed(failure);
      }
      if (failure instanceof DenialError) throw failure.status;
      throw failure;
    }
    return anyChange;
  }

  /** One call; true when the webhook's patch changed the object. */
  private async call(inv: Invocation, attrs: AdmissionAttributes, round: number, index: number): Promise<boolean> {
    const hook = inv.hook;
    let mutated = false;
    try {
      checkDryRun(hook, attrs);
      const v = versioned(inv, attrs, this.d);
      const result = await callWebhook(inv, attrs, v.object, v.oldObject, true);
      recordResult(hook, result, attrs);
      if (!result.allowed) throw new DenialError(denial(hook.name, result.status));
      if (!result.patch) return false;
      let ops: unknown;
      try {
        ops = JSON.parse(result.patch);
        if (!Array.isArray(ops)) throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
      } catch (err) {
        throw new CallingWebhookError(hook.name, `received undecodable patch in webhook response: ${(err as Error).message}`,
          errors.serviceUnavailable('error decoding patch in webhook response'));
      }
      if (ops.length === 0) return false;
      if (!v.object || !attrs.object) {
        throw errors.internal(new Error(`admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`));
      }
      let patched: KubeObject;
      try {
        patched = applyJsonPatch(v.object as unknown as JsonMap, ops) as unknown as KubeObject;
      } catch (err) {
        throw errors.internal(err);
      }
      mutated = !isDeepStrictEqual(patched, v.object);
      annotate(attrs, `patch.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({
        configuration: hook.configurationName, webhook: hook.name, patch: ops, patchType: 'JSONPatch',
      }));
      if (mutated) this.writeBack(inv, attrs, patched);
      return mutated;
    } finally {
      annotate(attrs, `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({
        configuration: hook.configurationName, webhook: hook.name, mutated,
      }));
    }
  }

  /**
   * The store holds on to attrs.object (and to its metadata), so the patched object is
   * written into it in place, keeping the identity of every nested object it still has.
   */
  private writeBack(inv: Invocation, attrs: AdmissionAttributes, patched: KubeObject): void {
    const target = attrs.object!;
    let next = patched;
    if (inv.converted) {
      next = this.d.equivalence.convert(patched, inv.resource, { group: attrs.group, version: attrs.version, resource: attrs.resource });
    }
    // The request's own apiVersion/kind stay as the client sent them (or absent).
    const { apiVersion: _a, kind: _k, ...content } = next as Record<string, unknown>;
    if (target.apiVersion !== undefined) content.apiVersion = target.apiVersion;
    if (target.kind !== undefined) content.kind = target.kind;
    syncInPlace(target as Record<string, unknown>, content);
  }
}

function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Makes `target` equal to `source`, reusing `target`'s nested objects where both have one. */
function syncInPlace(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const k of Object.keys(target)) if (!(k in source)) delete target[k];
  for (const [k, v] of Object.entries(source)) {
    const cur = target[k];
    if (isPlainRecord(cur) && isPlainRecord(v)) syncInPlace(cur, v);
    else target[k] = v;
  }
}

function annotate(attrs: AdmissionAttributes, key: string, value: string): void {
  if (attrs.auditAnnotations) attrs.auditAnnotations[key] = value;
}
