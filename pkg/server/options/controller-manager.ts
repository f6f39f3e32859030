// Not kube-apiserver's: kube-controller-manager's flags for the controllers every replica
// runs in-process (one at a time, elected).
import type { ClusterSigningOptions } from '../../controller/certificates/options.js';
import { signerFlagNames } from '../../controller/certificates/options.js';
import { parseClusterSigning } from '../cluster-signing.js';
import type { FlagSection, FlagSpec, FlagValues } from '../flags.js';

export interface ControllerManagerOptions {
  /** kube-controller-manager's --root-ca-file: the CA bundle published to pods (kube-root-ca.crt, token Secrets). */
  rootCAFile?: string;
  /** kube-controller-manager's --controllers: `*` (all on by default), `name`, `-name`. */
  controllers: string[];
  /** kube-controller-manager's --cluster-signing-* flags (csrsigning). */
  clusterSigning: ClusterSigningOptions;
  /** Not upstream's: --csr-cleaner-durations shortens the CSR cleaner's timings (tests). */
  csrCleanerDurations?: string;
}

const perSignerFlags: FlagSpec[] = Object.entries(signerFlagNames).flatMap(([signer, n]): FlagSpec[] => [
  { name: `cluster-signing-${n}-cert-file`, type: 'string', usage: `CA certificate that signs CSRs for ${signer}.` },
  { name: `cluster-signing-${n}-key-file`, type: 'string', usage: `Key of --cluster-signing-${n}-cert-file.` },
]);

export const controllerManagerSection: FlagSection<ControllerManagerOptions> = {
  name: 'controller manager',
  flags: [
    { name: 'cluster-signing-cert-file', type: 'string', usage: 'CA certificate that signs CSRs for every kubernetes.io signer.' },
    { name: 'cluster-signing-duration', type: 'duration', default: '8760h0m0s', usage: 'Longest validity of a certificate signed for a CSR.' },
    { name: 'cluster-signing-key-file', type: 'string', usage: 'Key of --cluster-signing-cert-file.' },
    ...perSignerFlags,
    { name: 'controllers', type: 'strings', default: '*', usage: 'Controllers to run: * for the default ones, name to enable, -name to disable, -* for none.' },
    { name: 'csr-cleaner-durations', type: 'string', usage: 'Ours, for tests: shorter ages at which the CSR cleaner removes requests.' },
    { name: 'root-ca-file', type: 'string', usage: 'CA bundle published to pods as kube-root-ca.crt and in token Secrets.' },
  ],
  read(f: FlagValues): ControllerManagerOptions {
    return {
      rootCAFile: f.string('root-ca-file'),
      controllers: f.list('controllers'),
      clusterSigning: parseClusterSigning((n) => f.string(n), (n) => f.duration(n)),
      csrCleanerDurations: f.string('csr-cleaner-durations'),
    };
  },
};
