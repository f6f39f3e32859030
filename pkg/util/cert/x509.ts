// @peculiar/x509, loaded on first use: it is some 170 CommonJS modules (tsyringe and the
// asn1 schemas with it) and a quarter of a second of CPU that a server whose serving
// pair is already on disk never needs at start. Its build for Node is CommonJS, so a
// synchronous require serves the synchronous validators as well as the async issuers.
import { createRequire } from 'node:module';
import type * as X509 from '@peculiar/x509';

const require = createRequire(import.meta.url);
let loaded: typeof X509 | undefined;

export function x509(): typeof X509 {
  if (!loaded) {
    // tsyringe, under @peculiar/x509, refuses to load without the Metadata Reflection API.
    require('reflect-metadata');
    loaded = require('@peculiar/x509') as typeof X509;
    // One provider for the library: Node's WebCrypto (global since Node 19).
    loaded.cryptoProvider.set(globalThis.crypto);
  }
  return loaded;
}
