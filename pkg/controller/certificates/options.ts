// kube-controller-manager's CSR signing flags: one CA for every signer, or one per
// signer, and the longest lifetime an issued certificate gets.
import type { FlagSpec } from '../../server/flags.js';

export const kubeAPIServerClientSignerName = 'kubernetes.io/kube-apiserver-client';
export const kubeletClientSignerName = 'kubernetes.io/kube-apiserver-client-kubelet';
export const kubeletServingSignerName = 'kubernetes.io/kubelet-serving';
export const legacyUnknownSignerName = 'kubernetes.io/legacy-unknown';

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

export const clusterSigningFlagSpecs: Record<string, FlagSpec> = Object.fromEntries([
  ['cluster-signing-cert-file', { type: 'string' }],
  ['cluster-signing-key-file', { type: 'string' }],
  ['cluster-signing-duration', { type: 'duration' }],
  ...Object.values(signerFlagNames).flatMap((n) => [
    [`cluster-signing-${n}-cert-file`, { type: 'string' }],
    [`cluster-signing-${n}-key-file`, { type: 'string' }],
  ]),
]);

/** Upstream's CSRSigningControllerOptions.Validate, with its messages. */
export function parseClusterSigning(
  one: (n: string) => string | undefined, dur: (n: string, def: number) => number,
): ClusterSigningOptions {
  const errs: string[] = [];
  const pair = (prefix: string): CertKeyFiles => {
    const certFile = one(`${prefix}-cert-file`) || undefined;
    const keyFile = one(`${prefix}-key-file`) || undefined;
    if (!certFile && keyFile) errs.push('cannot specify key without cert');
    if (certFile && !keyFile) errs.push('cannot specify cert without key');
    return { certFile, keyFile };
  };
  const general = pair('cluster-signing');
  const perSigner: Record<string, CertKeyFiles> = {};
  for (const [signer, n] of Object.entries(signerFlagNames)) perSigner[signer] = pair(`cluster-signing-${n}`);
  const anySigner = Object.values(perSigner).some((p) => p.certFile || p.keyFile);
  if ((general.certFile || general.keyFile) && anySigner) {
    errs.unshift('cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time');
  }
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
  return { ...general, perSigner, durationMs: dur('cluster-signing-duration', 365 * 24 * 3600_000) };
}

/** The CA files one signer uses: its own, else the general pair; none means it does not run. */
export function signerFiles(o: ClusterSigningOptions, signerName: string): Required<CertKeyFiles> | undefined {
  const own = o.perSigner[signerName];
  const files = own?.certFile ? own : o;
  return files.certFile && files.keyFile ? { certFile: files.certFile, keyFile: files.keyFile } : undefined;
}
