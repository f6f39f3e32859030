// Not upstream's: shadow mode. A replica given an upstream kube-apiserver's kubeconfig
// sends a sample of the reads it serves there too and compares the answers (pkg/server/shadow).
import type { FlagSection, FlagValues } from '../flags.js';

export interface ShadowOptions {
  /** Kubeconfig of the upstream kube-apiserver to compare with; none: shadow mode off. */
  shadowUpstream?: string;
  /** Fraction of eligible reads copied to upstream, 0 to 1. */
  shadowFraction: number;
  /** Comparisons in flight at once; a read beyond it is not shadowed. */
  shadowMaxInFlight: number;
}

export const shadowSection: FlagSection<ShadowOptions> = {
  name: 'shadow mode',
  flags: [
    { name: 'shadow-fraction', type: 'float', default: '0.1', usage: 'Fraction of reads (get, list, discovery, OpenAPI) copied to --shadow-upstream for comparison, 0 to 1.' },
    { name: 'shadow-max-in-flight', type: 'int', default: '4', usage: 'Shadow comparisons in flight at once; reads beyond it are not copied.' },
    { name: 'shadow-upstream', type: 'string', usage: 'Kubeconfig of an upstream kube-apiserver on the same etcd: copies of reads are sent there, as the same user (impersonation), and the answers compared.' },
  ],
  read(f: FlagValues): ShadowOptions {
    const fraction = f.float('shadow-fraction');
    if (!(fraction >= 0 && fraction <= 1)) throw new Error(`invalid argument "${f.string('shadow-fraction')}" for "--shadow-fraction" flag: must be between 0 and 1`);
    const maxInFlight = f.int('shadow-max-in-flight');
    if (maxInFlight < 1) throw new Error(`invalid argument "${maxInFlight}" for "--shadow-max-in-flight" flag: must be at least 1`);
    return { shadowUpstream: f.string('shadow-upstream') || undefined, shadowFraction: fraction, shadowMaxInFlight: maxInFlight };
  },
};
