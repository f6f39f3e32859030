// Bootstrap-token controllers (upstream's bootstrapsigner and tokencleaner). Upstream's
// controller manager runs them only when asked; this server runs them whenever
// bootstrap-token authentication is enabled.
export { bootstrapSignerController, signingTokens, clusterInfoName, clusterInfoNamespace, signaturePrefix } from './signer.js';
export { tokenCleanerController } from './cleaner.js';
export { computeDetachedSignature, detachedSignatureIsValid } from './jws.js';
