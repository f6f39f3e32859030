// The serving certificate: the files given, or (as upstream with --cert-dir) a
// self-signed pair generated once into the cert dir and reused on later starts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfSignedServingCert } from '../util/cert/index.js';
import type { ServerOptions } from './options.js';

export interface ServingCerts { cert: string; key: string; caFile?: string }

export async function servingCerts(o: ServerOptions): Promise<ServingCerts> {
  if (o.tlsCertFile && o.tlsPrivateKeyFile) {
    return { cert: readFileSync(o.tlsCertFile, 'utf8'), key: readFileSync(o.tlsPrivateKeyFile, 'utf8') };
  }
  const certFile = join(o.certDir, 'apiserver.crt');
  const keyFile = join(o.certDir, 'apiserver.key');
  const caFile = join(o.certDir, 'apiserver-ca.crt');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(o.certDir, { recursive: true });
    const host = o.bindAddress === '0.0.0.0' || o.bindAddress === '::' ? '127.0.0.1' : o.bindAddress;
    const pair = await selfSignedServingCert(host, ['127.0.0.1'], ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc']);
    writeFileSync(certFile, pair.cert, { mode: 0o644 });
    writeFileSync(keyFile, pair.key, { mode: 0o600 });
    writeFileSync(caFile, pair.ca.cert, { mode: 0o644 });
  }
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), caFile: existsSync(caFile) ? caFile : undefined };
}
