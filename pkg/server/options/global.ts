// Upstream's "global" flag set: --help and --version, which the command acts on before
// anything else, and a credential-provider flag every Kubernetes binary carried.
import type { FlagSection } from '../flags.js';

export const globalSection: FlagSection<object> = {
  name: 'global',
  flags: [
    { name: 'azure-container-registry-config', type: 'string', usage: 'Azure container registry configuration file.', notImplemented: true },
    { name: 'help', shorthand: 'h', type: 'bool', usage: 'help for kube-apiserver' },
    { name: 'version', type: 'version', default: 'false', noOptDefault: 'true', usage: '--version, --version=raw prints version information and quits; --version=vX.Y.Z... sets the reported version' },
  ],
  read: () => ({}),
};
