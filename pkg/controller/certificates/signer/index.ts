// csrsigning (SPEC 3.2): approved requests for the kubernetes.io signers that have a CA
// get a certificate in status.certificate; a request the signer's rules refuse gets the
// Failed condition instead. A signer without CA files does not run, as upstream.
import { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { ControllerContext } from '../../context.js';
import type { Controller } from '../../manager.js';
import { csrQueueController } from '../csr-queue.js';
import {
  condition, hasTrueCondition, isApproved, isIssued, parseRequest, signerNameOf, spec, statusOf, usagesOf,
} from '../../../apis/certificates/csr.js';
import { signerFiles } from '../options.js';
import { CertificateAuthority, certificateTTL } from './authority.js';
import { signerRules } from './rules.js';

export function csrSigningController(d: ControllerContext): Controller | undefined {
  const authorities = new Map<string, CertificateAuthority>();
  for (const signer of Object.keys(signerRules)) {
    const files = signerFiles(d.o.clusterSigning, signer);
    if (files) authorities.set(signer, new CertificateAuthority(files.certFile, files.keyFile));
  }
  if (authorities.size === 0) {
    d.log.info('skipping CSR signer controller because no csr cert/key was specified');
    return undefined;
  }
  const csrs = d.informers.informerFor('certificates.k8s.io', 'certificatesigningrequests');
  const client = d.client('certificate-controller').resource('certificates.k8s.io', 'certificatesigningrequests');

  const writeStatus = async (csr: KubeObject, status: Record<string, unknown>): Promise<void> => {
    const desired = { ...structuredClone(csr), status };
    try {
      await client.update('', desired, { subresource: 'status' });
    } catch (err) {
      // Changed or deleted meanwhile: the informer brings the new state back to the queue.
      if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
      throw err;
    }
  };

  const sync = async (name: string): Promise<void> => {
    const csr = csrs.get('', name);
    if (!csr || isIssued(csr) || !isApproved(csr) || hasTrueCondition(csr, 'Failed')) return;
    const signer = signerNameOf(csr);
    const ca = authorities.get(signer);
    if (!ca) return;
    let req;
    try {
      req = parseRequest(csr);
    } catch (err) {
      throw new Error(`unable to parse csr "${name}": ${(err as Error).message}`);
    }
    const usages = usagesOf(csr);
    const refusal = signerRules[signer]!(req, usages);
    const status = structuredClone(statusOf(csr));
    if (refusal !== undefined) {
      status.conditions = [...(Array.isArray(status.conditions) ? status.conditions : []),
        condition('Failed', 'SignerValidationFailure', refusal)];
      await writeStatus(csr, status);
      return;
    }
    const pem = await ca.sign(req, usages, certificateTTL(d.o.clusterSigning.durationMs, spec(csr).expirationSeconds));
    status.certificate = Buffer.from(pem).toString('base64');
    await writeStatus(csr, status);
  };

  return csrQueueController('csrsigning', d, csrs, sync);
}
