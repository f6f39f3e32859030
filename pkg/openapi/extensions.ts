// The seam between the OpenAPI handler and the aggregator: what extension servers
// (service-backed APIServices) publish, as last fetched. The handler merges their
// Swagger documents into /openapi/v2, lists their v3 documents in the /openapi/v3 root
// and hands requests for those documents back to the aggregator.
import type { Context } from 'koa';
import type { JSONObject } from './merge/swagger-merge.js';

export interface OpenAPIExtensions {
  /** Changes whenever anything below changes, so merged documents are rebuilt only then. */
  revision(): number;
  /** Swagger 2.0 documents, each cut to its APIService's group version, in merge order. */
  v2Specs(): JSONObject[];
  /** v3 root entries: document key (`apis/<group>/<version>`) to its serverRelativeURL. */
  v3Paths(): ReadonlyMap<string, string>;
  /** Answers GET /openapi/v3/<key> for a key of v3Paths; false for any other key. */
  serveV3(ctx: Context, key: string): Promise<boolean>;
}
