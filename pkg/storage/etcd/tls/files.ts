// The files behind --etcd-cafile, --etcd-certfile and --etcd-keyfile. Read and parsed at
// start-up, where a bad one is an error naming the flag and the file; then read again
// when they change on disk (kubeadm renews the client pair yearly), so every new
// connection uses what is on disk now. A renewed file that does not parse (caught
// half-written, say) leaves the last good material in use and is reported once.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

export interface EtcdTLSFiles {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/** A file behind a flag that cannot be read or parsed. */
export class EtcdTLSFileError extends Error {
  constructor(readonly flag: string, readonly file: string, reason: string) {
    super(`--${flag}: ${file}: ${reason}`);
    this.name = 'EtcdTLSFileError';
  }
}

/** True when any of the three flags is set: upstream then speaks TLS to https:// members. */
export function hasTLSFiles(f: EtcdTLSFiles): boolean {
  return Boolean(f.caFile || f.certFile || f.keyFile);
}

interface Material {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** Size and mtime of each file when read, to notice a change with one stat. */
  stamp: string;
  context: SecureContext;
}

const flagOf = { caFile: 'etcd-cafile', certFile: 'etcd-certfile', keyFile: 'etcd-keyfile' } as const;

function readFlagFile(field: keyof EtcdTLSFiles, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new EtcdTLSFileError(flagOf[field], file, `cannot read: ${(e as Error).message}`);
  }
}

function certificates(field: keyof EtcdTLSFiles, file: string, pem: Buffer): void {
  const blocks = pem.toString('utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!blocks) throw new EtcdTLSFileError(flagOf[field], file, 'no PEM certificate found');
  for (const b of blocks) {
    try {
      new X509Certificate(b);
    } catch (e) {
      throw new EtcdTLSFileError(flagOf[field], file, `cannot parse certificate: ${(e as Error).message}`);
    }
  }
}

function stampOf(f: EtcdTLSFiles): string {
  return [f.caFile, f.certFile, f.keyFile].map((p) => {
    if (!p) return '-';
    try {
      const s = statSync(p);
      return `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      return 'missing';
    }
  }).join('|');
}

/** Reads and checks the files; throws EtcdTLSFileError naming the flag and file. */
export function loadTLSMaterial(f: EtcdTLSFiles): Material {
  if (Boolean(f.certFile) !== Boolean(f.keyFile)) {
    const [field, other] = f.certFile ? ['certFile', 'keyFile'] as const : ['keyFile', 'certFile'] as const;
    throw new EtcdTLSFileError(flagOf[field], f[field]!, `--${flagOf[other]} must be set too`);
  }
  const stamp = stampOf(f);
  const ca = f.caFile ? readFlagFile('caFile', f.caFile) : undefined;
  if (ca) certificates('caFile', f.caFile!, ca);
  const cert = f.certFile ? readFlagFile('certFile', f.certFile) : undefined;
  if (cert) certificates('certFile', f.certFile!, cert);
  const key = f.keyFile ? readFlagFile('keyFile', f.keyFile) : undefined;
  if (key) {
    try {
      createPrivateKey(key);
    } catch (e) {
      throw new EtcdTLSFileError('etcd-keyfile', f.keyFile!, `cannot parse private key: ${(e as Error).message}`);
    }
  }
  let context: SecureContext;
  try {
    // No --etcd-cafile: the system's roots, as Go's crypto/tls does with a nil RootCAs.
    context = createSecureContext({ ca: ca ?? [...rootCertificates], cert, key });
  } catch (e) {
    throw new EtcdTLSFileError('etcd-keyfile', f.keyFile ?? f.certFile ?? f.caFile!, `does not match --etcd-certfile: ${(e as Error).message}`);
  }
  return { ca, cert, key, stamp, context };
}

/**
 * The current TLS context for new connections: the files are looked at (one stat each)
 * when a connection is made, and re-read when they changed.
 */
export class ReloadingTLSFiles {
  private current: Material;
  private rejectedStamp = '';

  constructor(
    readonly files: EtcdTLSFiles,
    private readonly onReload: (err?: Error) => void = () => undefined,
  ) {
    this.current = loadTLSMaterial(files);
  }

  context(): SecureContext {
    const stamp = stampOf(this.files);
    if (stamp !== this.current.stamp && stamp !== this.rejectedStamp) {
      try {
        this.current = loadTLSMaterial(this.files);
        this.onReload();
      } catch (e) {
        this.rejectedStamp = stamp;
        this.onReload(e as Error);
      }
    }
    return this.current.context;
  }
}
