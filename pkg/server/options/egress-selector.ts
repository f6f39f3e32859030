// Upstream's "egress selector" flag set: how outbound connections are dialed.
import type { FlagSection } from '../flags.js';

export const egressSelectorSection: FlagSection<object> = {
  name: 'egress selector',
  flags: [
    { name: 'egress-selector-config-file', type: 'string', usage: 'EgressSelectorConfiguration: proxies for connections to the cluster, etcd and the control plane.', notImplemented: true },
  ],
  read: () => ({}),
};
