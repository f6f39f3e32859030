// What the certificate controllers and admission plugins read from a
// CertificateSigningRequest: its parsed PKCS#10 request and its conditions.
import type * as X509 from '@peculiar/x509';
import { x509 } from '../../util/cert/x509.js';
import { pemDecode } from './pem.js';
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

type Obj = Record<string, unknown>;

/** The parts of a request the signer rules look at (Go's x509.CertificateRequest fields). */
export interface ParsedRequest {
  raw: X509.Pkcs10CertificateRequest;
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

export const spec = (csr: KubeObject): Obj => (isPlainObject(csr.spec) ? csr.spec : {});
export const statusOf = (csr: KubeObject): Obj => (isPlainObject(csr.status) ? csr.status : {});
export const signerNameOf = (csr: KubeObject): string => (typeof spec(csr).signerName === 'string' ? spec(csr).signerName as string : '');
export const usagesOf = (csr: KubeObject): string[] => (Array.isArray(spec(csr).usages) ? (spec(csr).usages as string[]) : []);

export function conditionsOf(csr: KubeObject): Obj[] {
  const c = statusOf(csr).conditions;
  return Array.isArray(c) ? c.filter(isPlainObject) : [];
}

export function hasTrueCondition(csr: KubeObject, type: string): boolean {
  return conditionsOf(csr).some((c) => c.type === type && (c.status === 'True' || c.status === undefined));
}

/** Upstream's IsCertificateRequestApproved: approved and not denied. */
export function isApproved(csr: KubeObject): boolean {
  return hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
}

export function isIssued(csr: KubeObject): boolean {
  const c = statusOf(csr).certificate;
  return typeof c === 'string' && c.length > 0;
}

/** Upstream's ParseCSR: the first PEM block must be a CERTIFICATE REQUEST. */
export function parseRequest(csr: KubeObject): ParsedRequest {
  const pem = typeof spec(csr).request === 'string' ? Buffer.from(spec(csr).request as string, 'base64') : Buffer.alloc(0);
  const block = pemDecode(pem.toString('latin1'));
  if (!block || block.type !== 'CERTIFICATE REQUEST') throw new Error('PEM block type must be CERTIFICATE REQUEST');
  const raw = new (x509().Pkcs10CertificateRequest)(new Uint8Array(block.bytes));
  const san = raw.extensions.find((e): e is X509.SubjectAlternativeNameExtension => e instanceof x509().SubjectAlternativeNameExtension);
  const names = san ? san.names.items : [];
  const of = (t: string) => names.filter((n) => n.type === t).map((n) => n.value);
  return {
    raw,
    commonName: raw.subjectName.getField('CN')[0] ?? '',
    organizations: raw.subjectName.getField('O'),
    dnsNames: of('dns'),
    ipAddresses: of('ip'),
    emailAddresses: of('email'),
    uris: of('url'),
  };
}

/** A condition as upstream's controllers append it (status True, lastUpdateTime now). */
export function condition(type: string, reason: string, message: string): Obj {
  return { type, status: 'True', reason, message, lastUpdateTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') };
}
