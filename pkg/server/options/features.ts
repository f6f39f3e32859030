// Upstream's "features" flag set (FeatureOptions): profiling endpoints.
import type { FlagSection } from '../flags.js';

export const featuresSection: FlagSection<object> = {
  name: 'features',
  flags: [
    { name: 'contention-profiling', type: 'bool', usage: 'Profile lock contention too, with --profiling.', notImplemented: true },
    { name: 'debug-socket-path', type: 'string', usage: 'Serve profiling, without authentication, on this unix socket.', notImplemented: true },
    { name: 'profiling', type: 'bool', default: 'true', usage: 'Serve profiles under /debug/pprof/.', notImplemented: true },
  ],
  read: () => ({}),
};
