// kube-apiserver's command line -> validated ServerOptions. Each flag is declared once,
// in its section's file under options/ (upstream's named flag sets, in upstream's order);
// that table drives parsing, defaults and --help.
import { FlagValues, parseFlags, type FlagSection, type FlagSpec } from './flags.js';
import { genericSection, type GenericOptions } from './options/generic.js';
import { etcdSection, type EtcdOptions } from './options/etcd.js';
import { secureServingSection, type SecureServingOptions } from './options/secure-serving.js';
import { auditingSection, type AuditingOptions } from './options/auditing.js';
import { authenticationSection, type AuthenticationOptions } from './options/authentication.js';
import { authorizationSection, type AuthorizationOptions } from './options/authorization.js';
import { apiEnablementSection, type APIEnablementOptions } from './options/api-enablement.js';
import { admissionSection, type AdmissionOptions } from './options/admission.js';
import { metricsSection, type MetricsOptions } from './options/metrics.js';
import { logsSection, type LogsOptions } from './options/logs.js';
import { miscSection, type MiscOptions } from './options/misc.js';
import { controllerManagerSection, type ControllerManagerOptions } from './options/controller-manager.js';
import { localSection, type LocalOptions } from './options/local.js';

export type { EndpointReconcilerType } from './options/misc.js';

export interface ServerOptions extends GenericOptions, EtcdOptions, SecureServingOptions, AuditingOptions,
  AuthenticationOptions, AuthorizationOptions, APIEnablementOptions, AdmissionOptions, MetricsOptions,
  LogsOptions, MiscOptions, ControllerManagerOptions, LocalOptions {
  /** Accepted flags we do not act on yet (warned about at start). */
  ignoredFlags: string[];
}

/** Every section, in the order `--help` prints them (upstream's first, then ours). */
export const flagSections: ReadonlyArray<FlagSection<object>> = [
  genericSection, etcdSection, secureServingSection, auditingSection, authenticationSection, authorizationSection,
  apiEnablementSection, admissionSection, metricsSection, logsSection, miscSection,
  controllerManagerSection, localSection,
];

export const allFlags: FlagSpec[] = flagSections.flatMap((s) => s.flags);

export function parseOptions(argv: string[]): ServerOptions {
  const parsed = parseFlags(argv, allFlags);
  if (parsed.positional.length > 0) throw new Error(`unexpected arguments: ${parsed.positional.join(' ')}`);
  const values = new FlagValues(parsed.values, allFlags);
  const options = Object.assign({}, ...flagSections.map((s) => s.read(values))) as Omit<ServerOptions, 'ignoredFlags'>;
  return { ...options, ignoredFlags: parsed.unknown.map((f) => f.replace(/^--?/, '')) };
}
