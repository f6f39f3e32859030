export { createDiscoveryHandler, type DiscoveryHandler, type DiscoveryOptions } from './handler.js';
export { aggregatedDiscovery, aggregatedLegacyDiscovery, toResourceDiscovery } from './aggregated.js';
export { apiGroupDocument, apiGroupList, apiResourceList, apiVersions, namedGroups } from './documents.js';
export { negotiateDiscovery, aggregatedContentType, type DiscoveryFormat } from './negotiation.js';
export { apiResourcesOf } from './resources.js';
export { storageVersionHash } from './storage-version-hash.js';
export type * from './types.js';
