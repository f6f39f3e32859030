// Upstream's "metrics" flag set (component-base metrics options).
import type { FlagSection, FlagValues } from '../flags.js';

export interface MetricsOptions {
  /** --show-hidden-metrics-for-version: the previous minor release, or unset. */
  showHiddenMetricsForVersion?: string;
}

export const metricsSection: FlagSection<MetricsOptions> = {
  name: 'metrics',
  flags: [
    { name: 'allow-metric-labels', type: 'stringToString', default: '[]', usage: 'Allowed values per metric label: <metric>,<label>=\'v1,v2\'.', notImplemented: true },
    { name: 'allow-metric-labels-manifest', type: 'string', usage: 'File of --allow-metric-labels mappings (the flag wins).', notImplemented: true },
    { name: 'disabled-metrics', type: 'strings', usage: 'Fully qualified metric names not to register.', notImplemented: true },
    { name: 'show-hidden-metrics-for-version', type: 'string', usage: 'The previous minor release (1.27) whose hidden metrics to show again.' },
  ],
  read: (f: FlagValues): MetricsOptions => ({ showHiddenMetricsForVersion: showHiddenMetricsFor(f.string('show-hidden-metrics-for-version')) }),
};

/** Only the release before this one (v1.28) may be named, as upstream validates it. */
function showHiddenMetricsFor(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (v !== '1.27') throw new Error("--show-hidden-metrics-for-version must be omitted or have the value '1.27'. Only the previous minor version is allowed");
  return v;
}
