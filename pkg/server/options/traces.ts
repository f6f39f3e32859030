// Upstream's "traces" flag set: OpenTelemetry tracing.
import type { FlagSection } from '../flags.js';

export const tracesSection: FlagSection<object> = {
  name: 'traces',
  flags: [
    { name: 'tracing-config-file', type: 'string', usage: 'TracingConfiguration for the apiserver\'s OpenTelemetry traces.', notImplemented: true },
  ],
  read: () => ({}),
};
