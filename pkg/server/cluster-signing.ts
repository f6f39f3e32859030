// kube-controller-manager's --cluster-signing-* flags (declared in
// options/controller-manager.ts), read into the csrsigning controller's options.
import { signerFlagNames, type CertKeyFiles, type ClusterSigningOptions } from '../controller/certificates/options.js';

/** Upstream's CSRSigningControllerOptions.Validate, with its messages. */
export function parseClusterSigning(
  one: (n: string) => string | undefined, dur: (n: string) => number,
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
  return { ...general, perSigner, durationMs: dur('cluster-signing-duration') };
}
