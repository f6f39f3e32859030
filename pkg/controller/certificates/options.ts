// What kube-controller-manager's CSR signing flags configure: one CA for every signer,
// or one per signer, and the longest lifetime an issued certificate gets (the flags
// themselves are read in pkg/server/cluster-signing.ts).

import {
  kubeAPIServerClientSignerName, kubeletClientSignerName, kubeletServingSignerName, legacyUnknownSignerName,
} from '../../apis/certificates/signers.js';

/** The per-signer flag infix of each signer upstream's csrsigning serves. */
export const signerFlagNames: Record<string, string> = {
  [kubeletServingSignerName]: 'kubelet-serving',
  [kubeletClientSignerName]: 'kubelet-client',
  [kubeAPIServerClientSignerName]: 'kube-apiserver-client',
  [legacyUnknownSignerName]: 'legacy-unknown',
};

export interface CertKeyFiles { certFile?: string; keyFile?: string }

export interface ClusterSigningOptions extends CertKeyFiles {
  perSigner: Record<string, CertKeyFiles>;
  /** --cluster-signing-duration: the longest certificate lifetime (default one year). */
  durationMs: number;
}

/** The CA files one signer uses: its own, else the general pair; none means it does not run. */
export function signerFiles(o: ClusterSigningOptions, signerName: string): Required<CertKeyFiles> | undefined {
  const own = o.perSigner[signerName];
  const files = own?.certFile ? own : o;
  return files.certFile && files.keyFile ? { certFile: files.certFile, keyFile: files.keyFile } : undefined;
}
