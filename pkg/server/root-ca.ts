// The CA bundle handed to workloads (kube-root-ca.crt, ca.crt in token Secrets): what
// lets a pod verify this server. kube-controller-manager's --root-ca-file wins; else the
// CA at the end of our serving chain (the self-signed case); else the client CA bundle.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerDeps } from './deps.js';

export function rootCA(d: ServerDeps): string {
  if (d.o.rootCAFile) return readFileSync(d.o.rootCAFile, 'utf8');
  const certs = d.servingCert.cert.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const last = certs.at(-1);
  if (certs.length > 1 && last && new X509Certificate(last).ca) return `${last}\n`;
  if (d.clientCAFile) return readFileSync(d.clientCAFile, 'utf8');
  return d.servingCert.cert;
}
