// Upstream's "cloud provider" flag set: in-tree cloud providers, which this server has none of.
import type { FlagSection } from '../flags.js';

export const cloudProviderSection: FlagSection<object> = {
  name: 'cloud provider',
  flags: [
    { name: 'cloud-config', type: 'string', usage: 'Cloud provider configuration file.', notImplemented: true },
    { name: 'cloud-provider', type: 'string', usage: 'Cloud provider; empty for none.', notImplemented: true },
  ],
  read: () => ({}),
};
