// kube-apiserver's TLS serving flags in Node's terms: --tls-min-version and
// --tls-cipher-suites take Go's names (crypto/tls) and become OpenSSL's; with no suites
// given Node's defaults apply, which like Go's offer only AEAD suites with forward
// secrecy first. --tls-sni-cert-key serves other certificates by SNI name, exact or
// wildcard, the names taken from the flag or else from the certificate itself.
import { createSecureContext, type SecureContext, type TlsOptions } from 'node:tls';
import { X509Certificate, constants as cryptoConstants } from 'node:crypto';
import { readFileSync } from 'node:fs';

const tlsVersions: Record<string, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'> = {
  VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3',
};

/** Go's cipher suite names (and their aliases) to OpenSSL's; TLS 1.3 suites are not configurable in Go. */
const cipherSuites: Record<string, string | null> = {
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_AES_128_GCM_SHA256: null,
  TLS_AES_256_GCM_SHA384: null,
  TLS_CHACHA20_POLY1305_SHA256: null,
};

/**
 * No resumable session tickets. OpenSSL sends two TLS 1.3 tickets after every handshake
 * by default (Go sends one), each built from a copy of the session, client certificate
 * included (decoded anew), then encrypted: about a tenth of a client-certificate
 * handshake's CPU here, and a thousand watch connections pay it a thousand times for
 * clients that do not resume (client-go keeps no session cache). With this option OpenSSL
 * sends stateful tickets naming a session the server does not keep (Node keeps none
 * unless asked): cheap to send, and a client presenting one gets a full handshake.
 */
export const sessionTicketOptions = { secureOptions: cryptoConstants.SSL_OP_NO_TICKET };

/** cliflag.TLSVersion; undefined means upstream's default, TLS 1.2. */
export function parseTLSMinVersion(v: string | undefined): TlsOptions['minVersion'] {
  if (v === undefined || v === '') return 'TLSv1.2';
  const version = tlsVersions[v];
  if (!version) throw new Error(`unknown tls version "${v}"`);
  return version;
}

/** cliflag.TLSCipherSuites: OpenSSL's cipher list, undefined for the defaults. */
export function parseTLSCipherSuites(names: string[]): string | undefined {
  if (names.length === 0) return undefined;
  const openssl: string[] = [];
  for (const name of names) {
    if (!(name in cipherSuites)) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
    const mapped = cipherSuites[name];
    if (mapped) openssl.push(mapped);
  }
  // Legacy suites need OpenSSL's lowest security level, as Go still offers them when asked.
  return openssl.length > 0 ? `${openssl.join(':')}:@SECLEVEL=0` : undefined;
}

export interface SNICertKey { certFile: string; keyFile: string; names: string[] }

/** `cert,key` or `cert,key:name1,name2` (cliflag.NamedCertKey). */
export function parseSNICertKey(v: string): SNICertKey {
  const [files = '', names = ''] = v.split(':', 2);
  const [certFile, keyFile, ...rest] = files.split(',').map((s) => s.trim());
  if (!certFile || !keyFile || rest.length > 0) throw new Error(`invalid argument "${v}" for "--tls-sni-cert-key" flag: expected comma separated certificate and key file paths`);
  return { certFile, keyFile, names: names.split(',').map((s) => s.trim()).filter(Boolean) };
}

/** The names a certificate answers for when the flag names none: its CN and DNS/IP SANs. */
function namesOf(certPem: string): string[] {
  const cert = new X509Certificate(certPem);
  const names = new Set<string>();
  const cn = /CN=([^\n,]+)/.exec(cert.subject)?.[1];
  if (cn) names.add(cn);
  for (const san of (cert.subjectAltName ?? '').split(', ')) {
    const m = /^(DNS|IP Address):(.+)$/.exec(san);
    if (m) names.add(m[2]!);
  }
  return [...names];
}

/** Node's SNICallback over the named certificates; unknown names get the default certificate. */
export function sniCallback(pairs: SNICertKey[], base: TlsOptions): TlsOptions['SNICallback'] {
  if (pairs.length === 0) return undefined;
  const exact = new Map<string, SecureContext>();
  const wildcard = new Map<string, SecureContext>();
  for (const p of pairs) {
    const cert = readFileSync(p.certFile, 'utf8');
    const ctx = createSecureContext({ ...base, cert, key: readFileSync(p.keyFile, 'utf8') });
    for (const name of p.names.length > 0 ? p.names : namesOf(cert)) {
      const n = name.toLowerCase();
      // The first certificate given for a name wins, as upstream.
      if (n.startsWith('*.')) { if (!wildcard.has(n.slice(2))) wildcard.set(n.slice(2), ctx); } else if (!exact.has(n)) exact.set(n, ctx);
    }
  }
  return (servername, cb) => {
    const n = servername.toLowerCase();
    const ctx = exact.get(n) ?? wildcard.get(n.slice(n.indexOf('.') + 1));
    cb(null, ctx);
  };
}
