// admissionregistration.k8s.io/v1 mutatingwebhookconfigurations and
// validatingwebhookconfigurations (stored under /registry/<plural>/<name>).
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { WebhookConfigurationStrategy } from './strategy.js';
import { webhookConfigurationTable } from './table.js';

export const mutatingwebhookconfigurations: ResourceDef = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  namespaced: false,
  verbs: [...allVerbs],
  categories: ['api-extensions'],
  strategy: new WebhookConfigurationStrategy(true),
  table: webhookConfigurationTable,
};

export const validatingwebhookconfigurations: ResourceDef = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  namespaced: false,
  verbs: [...allVerbs],
  categories: ['api-extensions'],
  strategy: new WebhookConfigurationStrategy(false),
  table: webhookConfigurationTable,
};
