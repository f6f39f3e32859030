// kube-apiserver's command line -> what to do: print help, print the version, or run
// with validated ServerOptions. Each flag is declared once, in its section's file under
// options/ (upstream's named flag sets, in upstream's order); that table drives parsing,
// defaults and --help.
import { goQuoteSlice } from '../runtime/gofmt.js';
import { FlagValues, parseBoolFlag, parseFlags, type FlagSection, type FlagSpec } from './flags.js';
import { genericSection, type GenericOptions } from './options/generic.js';
import { etcdSection, type EtcdOptions } from './options/etcd.js';
import { secureServingSection, type SecureServingOptions } from './options/secure-serving.js';
import { auditingSection, type AuditingOptions } from './options/auditing.js';
import { featuresSection } from './options/features.js';
import { authenticationSection, type AuthenticationOptions } from './options/authentication.js';
import { authorizationSection, type AuthorizationOptions } from './options/authorization.js';
import { cloudProviderSection } from './options/cloud-provider.js';
import { apiEnablementSection, type APIEnablementOptions } from './options/api-enablement.js';
import { egressSelectorSection } from './options/egress-selector.js';
import { admissionSection, type AdmissionOptions } from './options/admission.js';
import { metricsSection, type MetricsOptions } from './options/metrics.js';
import { logsSection, type LogsOptions } from './options/logs.js';
import { tracesSection } from './options/traces.js';
import { miscSection, type MiscOptions } from './options/misc.js';
import { globalSection } from './options/global.js';
import { controllerManagerSection, type ControllerManagerOptions } from './options/controller-manager.js';
import { localSection, type LocalOptions } from './options/local.js';
import { shadowSection, type ShadowOptions } from './options/shadow.js';

export type { EndpointReconcilerType } from './options/misc.js';

export interface ServerOptions extends GenericOptions, EtcdOptions, SecureServingOptions, AuditingOptions,
  AuthenticationOptions, AuthorizationOptions, APIEnablementOptions, AdmissionOptions, MetricsOptions,
  LogsOptions, MiscOptions, ControllerManagerOptions, LocalOptions, ShadowOptions {
  /** Upstream's flags given on the command line that this server does not act on (warned about at start). */
  ignoredFlags: string[];
}

/** Every section, in the order `--help` prints them: upstream's (kube-apiserver v1.28), then ours. */
export const flagSections: ReadonlyArray<FlagSection<object>> = [
  genericSection, etcdSection, secureServingSection, auditingSection, featuresSection, authenticationSection,
  authorizationSection, cloudProviderSection, apiEnablementSection, egressSelectorSection, admissionSection,
  metricsSection, logsSection, tracesSection, miscSection, globalSection,
  controllerManagerSection, localSection, shadowSection,
];

export const allFlags: FlagSpec[] = flagSections.flatMap((s) => s.flags);

export type Command =
  | { action: 'help' }
  | { action: 'version'; raw: boolean }
  | { action: 'run'; options: ServerOptions; warnings: string[] };

/**
 * As upstream's command: a flag parse error first (unknown flag...), then --help, then
 * --version, then the options' own validation.
 */
export function parseCommand(argv: string[]): Command {
  const parsed = parseFlags(argv, allFlags);
  const values = new FlagValues(parsed.values, allFlags);
  if (values.bool('help')) return { action: 'help' };
  const version = values.string('version')!;
  if (version === 'raw') return { action: 'version', raw: true };
  // A `v1.2.3` value sets the reported version upstream; not here (warned below).
  if (!version.startsWith('v') && parseBoolFlag('version', version)) return { action: 'version', raw: false };
  if (parsed.positional.length > 0) throw new Error(`"kube-apiserver" does not take any arguments, got ${goQuoteSlice(parsed.positional)}`);
  const options = Object.assign({}, ...flagSections.map((s) => s.read(values))) as Omit<ServerOptions, 'ignoredFlags'>;
  const given = allFlags.filter((f) => parsed.values.has(f.name));
  const ignoredFlags = given.filter((f) => f.notImplemented || (f.name === 'version' && version.startsWith('v'))).map((f) => f.name);
  const warnings = given.filter((f) => f.deprecated).map((f) => `Flag --${f.name} has been deprecated, ${f.deprecated}`);
  return { action: 'run', options: { ...options, ignoredFlags }, warnings };
}

/** The options to run with; --help and --version are the command's business (parseCommand). */
export function parseOptions(argv: string[]): ServerOptions {
  const command = parseCommand(argv);
  if (command.action !== 'run') throw new Error(`--${command.action} asks for output, not a server`);
  return command.options;
}

