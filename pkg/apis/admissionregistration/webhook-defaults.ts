// admissionregistration.k8s.io/v1 defaulting for webhook configurations (upstream:
// SetDefaults_ValidatingWebhook, SetDefaults_MutatingWebhook, SetDefaults_Rule,
// SetDefaults_ServiceReference).
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

export function defaultWebhookConfiguration(obj: KubeObject, mutating: boolean): void {
  if (!Array.isArray(obj.webhooks)) return;
  for (const hook of obj.webhooks) {
    if (!isPlainObject(hook)) continue;
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    if (!isPlainObject(hook.namespaceSelector)) hook.namespaceSelector = {};
    if (!isPlainObject(hook.objectSelector)) hook.objectSelector = {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    if (Array.isArray(hook.rules)) {
      for (const rule of hook.rules) if (isPlainObject(rule)) rule.scope ??= '*';
    }
    const cc = hook.clientConfig;
    if (isPlainObject(cc) && isPlainObject(cc.service)) cc.service.port ??= 443;
  }
}
