// The fields of an admissionregistration.k8s.io/v1 webhook the dispatcher reads, as the
// informer hands them over (already defaulted by the configuration's strategy).
export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port?: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: string;
}

export interface LabelSelectorSpec {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] | null }> | null;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface WebhookSpec {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: 'Fail' | 'Ignore';
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: LabelSelectorSpec;
  objectSelector?: LabelSelectorSpec;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  matchConditions?: MatchCondition[];
}

/** A resource as the dispatcher addresses it. */
export interface GVR {
  group: string;
  version: string;
  resource: string;
}

export interface GVK {
  group: string;
  version: string;
  kind: string;
}
