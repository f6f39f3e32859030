// csrapproving: a pending kubelet client request (signer kube-apiserver-client-kubelet,
// subject O=system:nodes, CN=system:node:...) is approved when its requester may
// create certificatesigningrequests/selfnodeclient (renewing its own CN) or /nodeclient
// (bootstrap), asked of this server's authorizer as upstream asks a SubjectAccessReview.
import type { UserInfo } from '../../../authentication/user.js';
import type { Authorizer } from '../../../authorization/interfaces.js';
import { StatusError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import type { ControllerContext } from '../../context.js';
import type { Controller } from '../../manager.js';
import { csrQueueController } from '../csr-queue.js';
import { condition, hasTrueCondition, isIssued, parseRequest, signerNameOf, spec, statusOf, usagesOf, type ParsedRequest } from '../../../apis/certificates/csr.js';
import { kubeletClientSignerName } from '../../../apis/certificates/signers.js';
import { kubeletClientError } from '../signer/rules.js';


interface Recognizer {
  recognize(csr: KubeObject, req: ParsedRequest): boolean;
  subresource: string;
  message: string;
}

const isNodeClient = (csr: KubeObject, req: ParsedRequest): boolean =>
  signerNameOf(csr) === kubeletClientSignerName && kubeletClientError(req, usagesOf(csr)) === undefined;

const recognizers: Recognizer[] = [
  {
    recognize: (csr, req) => spec(csr).username === req.commonName && isNodeClient(csr, req),
    subresource: 'selfnodeclient',
    message: 'Auto approving self kubelet client certificate after SubjectAccessReview.',
  },
  { recognize: isNodeClient, subresource: 'nodeclient', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' },
];

/** The requester recorded in the request, as a SubjectAccessReview names it. */
function requester(csr: KubeObject): UserInfo {
  const s = spec(csr);
  return {
    name: typeof s.username === 'string' ? s.username : '',
    uid: typeof s.uid === 'string' ? s.uid : undefined,
    groups: Array.isArray(s.groups) ? (s.groups as string[]) : [],
    extra: isPlainObject(s.extra) ? (s.extra as Record<string, string[]>) : undefined,
  };
}

async function mayCreate(authorizer: Authorizer, user: UserInfo, subresource: string): Promise<boolean> {
  const d = await authorizer.authorize({
    user, verb: 'create', isResourceRequest: true, path: '', namespace: '', name: '',
    apiGroup: 'certificates.k8s.io', apiVersion: '*', resource: 'certificatesigningrequests', subresource,
  });
  return d.decision === 'allow';
}

export function csrApprovingController(d: ControllerContext): Controller | undefined {
  const authorizer = d.authorizer;
  if (!authorizer) return undefined;
  const csrs = d.informers.informerFor('certificates.k8s.io', 'certificatesigningrequests');
  const client = d.client('certificate-controller').resource('certificates.k8s.io', 'certificatesigningrequests');

  const sync = async (name: string): Promise<void> => {
    const csr = csrs.get('', name);
    if (!csr || isIssued(csr) || hasTrueCondition(csr, 'Approved') || hasTrueCondition(csr, 'Denied')) return;
    let req: ParsedRequest;
    try {
      req = parseRequest(csr);
    } catch (err) {
      throw new Error(`unable to parse csr "${name}": ${(err as Error).message}`);
    }
    for (const r of recognizers) {
      if (!r.recognize(csr, req) || !(await mayCreate(authorizer, requester(csr), r.subresource))) continue;
      const status = structuredClone(statusOf(csr));
      const { lastUpdateTime: _, ...approved } = condition('Approved', 'AutoApproved', r.message);
      status.conditions = [...(Array.isArray(status.conditions) ? status.conditions : []), approved];
      try {
        await client.update('', { ...structuredClone(csr), status }, { subresource: 'approval' });
      } catch (err) {
        if (err instanceof StatusError && (err.code === 404 || err.code === 409)) return;
        throw err;
      }
      return;
    }
  };

  return csrQueueController('csrapproving', d, csrs, sync);
}
