// ValidatingAdmissionWebhook: every matching webhook is called at once; the request is
// rejected by the first failure in configuration order, as upstream reports it.
import { CallingWebhookError } from './client.js';
import {
  callWebhook, checkDryRun, denial, DenialError, failClosed, matchTarget, observe, recordResult, shouldCall, versioned,
  type DispatchDeps, type Invocation,
} from './dispatch.js';
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { isExemptConfigurationResource } from './matching.js';
import { waitForReady } from './ready.js';
import type { WebhookConfigurations } from './source.js';

export class ValidatingWebhook implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionWebhook';

  constructor(private readonly source: WebhookConfigurations, private readonly d: DispatchDeps) {}

  handles(_op: Operation): boolean {
    return true;
  }

  // No webhook for the resource (most writes): answered without a promise.
  validate(attrs: AdmissionAttributes): Promise<void> | void {
    if (isExemptConfigurationResource(attrs) || (this.source.hasSynced() && this.source.candidates(attrs.resource).length === 0)) return;
    return this.validateByHooks(attrs);
  }

  private async validateByHooks(attrs: AdmissionAttributes): Promise<void> {
    await waitForReady(this.source, attrs);
    let invocations: Invocation[] | undefined;
    for (const hook of this.source.candidates(attrs.resource)) {
      const inv = matchTarget(hook, attrs, this.d);
      if (inv && await shouldCall(inv, attrs, this.d)) (invocations ??= []).push(inv);
    }
    if (!invocations) return;
    const outcomes = await Promise.all(invocations.map((inv) => this.call(inv, attrs, inv.hook.index)));
    for (const err of outcomes) if (err) throw err;
  }

  /** One call; resolves to the error that rejects the request, if any. */
  private async call(inv: Invocation, attrs: AdmissionAttributes, index: number): Promise<Error | undefined> {
    const hook = inv.hook;
    const started = performance.now();
    let failure: unknown;
    try {
      checkDryRun(hook, attrs);
      const v = versioned(inv, attrs, this.d);
      const result = await callWebhook(inv, attrs, v.object, v.oldObject, false);
      recordResult(hook, result, attrs);
      if (!result.allowed) throw new DenialError(denial(hook.name, result.status));
    } catch (err) {
      failure = err;
    }
    observe(this.d.metrics, 'validating', hook, attrs, started, failure);
    if (failure === undefined) return undefined;
    if (failure instanceof CallingWebhookError) {
      if (hook.failOpen) {
        this.d.metrics.failedOpen(hook.name, 'validating');
        if (attrs.auditAnnotations) attrs.auditAnnotations[`failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`] = hook.name;
        return undefined;
      }
      return failClosed(failure);
    }
    if (failure instanceof DenialError) return failure.status;
    return failure instanceof Error ? failure : new Error(String(failure));
  }
}
