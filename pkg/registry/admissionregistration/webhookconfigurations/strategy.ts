// Mutating and validating webhook configurations: cluster-scoped, DNS-subdomain names,
// generation tracked; defaults and checks live in pkg/apis/admissionregistration.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { defaultWebhookConfiguration } from '../../../apis/admissionregistration/webhook-defaults.js';
import { strictWebhookOptions, updateWebhookOptions, validateWebhookConfiguration }
  from '../../../apis/admissionregistration/webhook-validation.js';
import { BaseStrategy } from '../../generic/base-strategy.js';

export class WebhookConfigurationStrategy extends BaseStrategy {
  constructor(private readonly mutating: boolean) {
    super({ namespaced: false, nameValidator: nameIsDNSSubdomain, tracksGeneration: true });
  }

  override applyDefaults(obj: KubeObject): void {
    defaultWebhookConfiguration(obj, this.mutating);
  }

  protected override validateObject(obj: KubeObject): FieldError[] {
    return validateWebhookConfiguration(obj, strictWebhookOptions(this.mutating));
  }

  protected override validateObjectUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
    return validateWebhookConfiguration(obj, updateWebhookOptions(old, this.mutating));
  }
}
