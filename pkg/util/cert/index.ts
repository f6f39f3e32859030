export type { CertKeyPair, CertRequest, CertUsage } from './types.js';
export type { KeyAlgorithm } from './keys.js';
export { generateCA, issueCertificate, firstPem, type GenerateCAOptions } from './issue.js';
export { selfSignedServingCert, type SelfSignedServing } from './self-signed.js';
export { writeKeyPair, type KeyPairFiles } from './write.js';
