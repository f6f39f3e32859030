// Upstream's "api enablement" flag set: --runtime-config turns group versions and
// resources on and off.
import type { FlagSection, FlagValues } from '../flags.js';

export interface APIEnablementOptions {
  /** --runtime-config key=value pairs (a missing value means true). */
  runtimeConfig: Record<string, string>;
}

export const apiEnablementSection: FlagSection<APIEnablementOptions> = {
  name: 'api enablement',
  flags: [
    { name: 'runtime-config', type: 'mapStringString', usage: 'key=value pairs turning APIs on or off: api/all, api/ga, api/beta, api/alpha, <group>/<version>, <group>/<version>/<resource>.' },
  ],
  read: (f: FlagValues): APIEnablementOptions => ({ runtimeConfig: Object.fromEntries(f.keyValues('runtime-config', true)) }),
};
