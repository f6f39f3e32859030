// Each kubernetes.io signer's rules on subjects, names and usages (upstream's
// isRequestForSignerFn and the ValidateKubelet*CSR helpers), with upstream's messages:
// a violated rule is recorded as the Failed condition.
import type { ParsedRequest } from '../../../apis/certificates/csr.js';
import {
  kubeAPIServerClientSignerName, kubeletClientSignerName, kubeletServingSignerName, legacyUnknownSignerName,
} from '../../../apis/certificates/signers.js';

const sameSet = (a: string[], b: string[]): boolean => {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((u) => x.has(u));
};
/** Go's %v of a sorted string set. */
const goList = (xs: string[]): string => `[${[...xs].sort().join(' ')}]`;

const kubeletClientUsages = ['digital signature', 'key encipherment', 'client auth'];
const kubeletClientUsagesNoRSA = ['digital signature', 'client auth'];
const kubeletServingUsages = ['digital signature', 'key encipherment', 'server auth'];
const kubeletServingUsagesNoRSA = ['digital signature', 'server auth'];

const isNodesOnly = (o: string[]): boolean => o.length === 1 && o[0] === 'system:nodes';

/** Upstream's ValidateKubeletClientCSR; the error text or undefined. */
export function kubeletClientError(req: ParsedRequest, usages: string[]): string | undefined {
  if (!isNodesOnly(req.organizations)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length > 0) return 'DNS subjectAltNames are not allowed';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.ipAddresses.length > 0) return 'IP subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return "subject common name does not begin with 'system:node:'";
  if (!sameSet(usages, kubeletClientUsages) && !sameSet(usages, kubeletClientUsagesNoRSA)) {
    return `usages did not match ${goList(kubeletClientUsages)}`;
  }
  return undefined;
}

/** Upstream's ValidateKubeletServingCSR; the error text or undefined. */
export function kubeletServingError(req: ParsedRequest, usages: string[]): string | undefined {
  if (!isNodesOnly(req.organizations)) return 'subject organization is not system:nodes';
  if (req.dnsNames.length === 0 && req.ipAddresses.length === 0) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length > 0) return 'Email subjectAltNames are not allowed';
  if (req.uris.length > 0) return 'URI subjectAltNames are not allowed';
  if (!sameSet(usages, kubeletServingUsages) && !sameSet(usages, kubeletServingUsagesNoRSA)) {
    return `usages did not match ${goList(kubeletServingUsages)}`;
  }
  if (!req.commonName.startsWith('system:node:')) return "subject common name does not begin with 'system:node:'";
  return undefined;
}

/** Upstream's validAPIServerClientUsages. */
function apiServerClientError(usages: string[]): string | undefined {
  let clientAuth = false;
  for (const u of usages) {
    if (u === 'client auth') clientAuth = true;
    else if (u !== 'digital signature' && u !== 'key encipherment') return `invalid usage for client certificate: ${u}`;
  }
  return clientAuth ? undefined : 'missing required usage for client certificate: client auth';
}

/** A signer's verdict: undefined accepts; a string is the Failed condition's message. */
export type SignerRule = (req: ParsedRequest, usages: string[]) => string | undefined;

export const signerRules: Record<string, SignerRule> = {
  [kubeAPIServerClientSignerName]: (_req, usages) => apiServerClientError(usages),
  [kubeletClientSignerName]: kubeletClientError,
  [kubeletServingSignerName]: kubeletServingError,
  // No restrictions, for compatibility with v1beta1 clients.
  [legacyUnknownSignerName]: () => undefined,
};
