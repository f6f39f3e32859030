// What kube-apiserver does when --cert-dir is set and no serving cert is given: a fresh
// CA named "<host>-ca@<unix time>" signs a serving cert "<host>@<unix time>"; the cert
// file holds the leaf followed by the CA so clients can find the chain.
import { isIP } from 'node:net';
import { issueCertificate, generateCA } from './issue.js';
import type { CertKeyPair } from './types.js';

export interface SelfSignedServing extends CertKeyPair {
  /** The CA that signed the serving cert; its cert is what clients should trust. */
  ca: CertKeyPair;
}

export async function selfSignedServingCert(
  host: string,
  alternateIPs: string[] = [],
  alternateDNS: string[] = [],
): Promise<SelfSignedServing> {
  const stamp = Math.floor(Date.now() / 1000);
  const ca = await generateCA(`${host}-ca@${stamp}`, { days: 365, keyAlgorithm: 'RSA' });
  const hostIsIP = isIP(host) !== 0;
  const leaf = await issueCertificate(ca, {
    cn: `${host}@${stamp}`,
    usage: 'server',
    days: 365,
    keyAlgorithm: 'RSA',
    ipAddresses: [...(hostIsIP ? [host] : []), ...alternateIPs],
    dnsNames: [...(hostIsIP ? [] : [host]), ...alternateDNS],
  });
  return { cert: leaf.cert + ca.cert, key: leaf.key, ca };
}
