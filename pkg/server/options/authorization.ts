// Upstream's "authorization" flag set (BuiltInAuthorizationOptions): the modes, in order,
// and the files and webhook tuning they need.
import type { FlagSection, FlagValues } from '../flags.js';

export interface AuthorizationOptions {
  authorizationModes: string[];
  authorizationPolicyFile?: string;
  authorizationWebhookConfigFile?: string;
  authorizationWebhookVersion: string;
  authorizationWebhookCacheAuthorizedTTLMs: number;
  authorizationWebhookCacheUnauthorizedTTLMs: number;
}

const knownModes = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];

export const authorizationSection: FlagSection<AuthorizationOptions> = {
  name: 'authorization',
  flags: [
    { name: 'authorization-mode', type: 'strings', default: 'AlwaysAllow', usage: `Authorizers tried in order, comma separated: ${knownModes.join(',')}.` },
    { name: 'authorization-policy-file', type: 'string', usage: 'ABAC policy, one JSON object per line (with --authorization-mode=ABAC).' },
    { name: 'authorization-webhook-cache-authorized-ttl', type: 'duration', default: '5m0s', usage: 'How long the webhook authorizer\'s "allowed" answers are cached.' },
    { name: 'authorization-webhook-cache-unauthorized-ttl', type: 'duration', default: '30s', usage: 'How long the webhook authorizer\'s "denied" answers are cached.' },
    { name: 'authorization-webhook-config-file', type: 'string', usage: 'kubeconfig-formatted file naming the SubjectAccessReview webhook (with --authorization-mode=Webhook).' },
    { name: 'authorization-webhook-version', type: 'string', default: 'v1beta1', usage: 'authorization.k8s.io version of the SubjectAccessReview sent to the webhook (v1 or v1beta1).' },
  ],
  read(f: FlagValues): AuthorizationOptions {
    const modes = f.list('authorization-mode');
    for (const m of modes) {
      if (!knownModes.includes(m)) throw new Error(`--authorization-mode: authorization mode "${m}" is not a valid mode`);
    }
    const options: AuthorizationOptions = {
      authorizationModes: modes.length > 0 ? modes : ['AlwaysAllow'],
      authorizationPolicyFile: f.string('authorization-policy-file'),
      authorizationWebhookConfigFile: f.string('authorization-webhook-config-file'),
      authorizationWebhookVersion: f.string('authorization-webhook-version')!,
      authorizationWebhookCacheAuthorizedTTLMs: f.duration('authorization-webhook-cache-authorized-ttl'),
      authorizationWebhookCacheUnauthorizedTTLMs: f.duration('authorization-webhook-cache-unauthorized-ttl'),
    };
    validate({ ...options, authorizationModes: modes });
    return options;
  },
};

/** Upstream's BuiltInAuthorizationOptions.Validate, with its messages. */
function validate(o: AuthorizationOptions): void {
  const modes = o.authorizationModes;
  const errs: string[] = [];
  if (modes.includes('ABAC') && !o.authorizationPolicyFile) errs.push("authorization-mode ABAC's authorization policy file not passed");
  if (!modes.includes('ABAC') && o.authorizationPolicyFile) errs.push('cannot specify --authorization-policy-file without mode ABAC');
  if (modes.includes('Webhook') && !o.authorizationWebhookConfigFile) errs.push("authorization-mode Webhook's authorization config file not passed");
  if (!modes.includes('Webhook') && o.authorizationWebhookConfigFile) errs.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (new Set(modes).size !== modes.length) errs.push(`authorization-mode ${JSON.stringify(modes).replace(/,/g, ' ')} has mode specified more than once`);
  const version = o.authorizationWebhookVersion;
  if (version !== 'v1' && version !== 'v1beta1') errs.push(`--authorization-webhook-version: invalid version "${version}": must be v1 or v1beta1`);
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
}
