// Test-side PKCS#10 requests and CertificateSigningRequest bodies, made with
// @peculiar/x509 and WebCrypto as a kubelet or a user would make them.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { privateKeyToPem } from '../../pkg/util/cert/keys.js';

x509.cryptoProvider.set(globalThis.crypto);

export interface CSRKey { request: string; key: string }

export interface CSRSubject {
  cn: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
}

/** A PEM CERTIFICATE REQUEST and its PEM private key (ECDSA P-256). */
export async function makeRequest(s: CSRSubject): Promise<CSRKey> {
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const sans: x509.JsonGeneralNames = [
    ...(s.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(s.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const req = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [...(s.organizations ?? []).map((o) => ({ O: [o] })), { CN: [s.cn] }],
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : [],
  });
  return { request: req.toString('pem'), key: await privateKeyToPem(keys.privateKey) };
}

export function csrBody(name: string, request: string, signerName: string, usages: string[], expirationSeconds?: number) {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: { request: Buffer.from(request).toString('base64'), signerName, usages, ...(expirationSeconds ? { expirationSeconds } : {}) },
  };
}
