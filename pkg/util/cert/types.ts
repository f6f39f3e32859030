/** A certificate and its private key, both PEM. Field names match Node's tls options. */
export interface CertKeyPair {
  /** PEM certificate; for a serving cert from selfSignedServingCert, the chain (leaf first). */
  cert: string;
  /** PEM PKCS#8 private key. */
  key: string;
}

/** 'peer': both, as etcd's peer and server certificates are (each member dials the others). */
export type CertUsage = 'server' | 'client' | 'peer';

export interface CertRequest {
  cn: string;
  /** Subject organizations; Kubernetes reads them as the user's groups. */
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  usage: CertUsage;
  /** Validity in days; default 365. */
  days?: number;
  /** Key algorithm of the new certificate; default ECDSA (P-256). */
  keyAlgorithm?: 'ECDSA' | 'RSA';
}
