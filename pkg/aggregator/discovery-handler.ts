// /apis and /apis/<group> with the aggregated APIs: this server's own documents (from
// the local discovery handler it wraps) merged with the service-backed APIServices
// (legacy documents) and the discovery fetched from their services (the aggregated
// document). Paths and groups without service-backed APIServices are the local
// handler's alone. /apis/<group>/<version> of a remote API is proxied (proxy.ts).
import type Koa from 'koa';
import { negotiateDiscovery } from '../endpoints/discovery/index.js';
import { sendAggregated, sendJSON } from '../endpoints/discovery/handler.js';
import type { APIGroup, APIGroupDiscoveryList, APIGroupList } from '../endpoints/discovery/types.js';
import { apiServiceSpec } from './apiservice.js';
import type { APIServiceLookup } from './apiservices.js';
import { mergeAggregated, mergeGroup, mergeGroupList, Priorities } from './discovery-merge.js';
import type { RemoteDiscovery } from './remote-discovery.js';

type PathHandler = (ctx: Koa.Context) => Promise<boolean>;

/** The local handler's JSON answer for this request, unconditional (no 304); undefined if it has none. */
async function localDocument<T>(ctx: Koa.Context, local: PathHandler): Promise<T | undefined> {
  const conditional = ctx.req.headers['if-none-match'];
  delete ctx.req.headers['if-none-match'];
  try {
    if (!(await local(ctx)) || ctx.status !== 200 || typeof ctx.body !== 'string') return undefined;
    return JSON.parse(ctx.body) as T;
  } finally {
    if (conditional !== undefined) ctx.req.headers['if-none-match'] = conditional;
  }
}

export function aggregatedDiscoveryHandler(local: PathHandler, apiServices: APIServiceLookup, remote: RemoteDiscovery): PathHandler {
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return local(ctx);
    const path = ctx.path.length > 1 && ctx.path.endsWith('/') ? ctx.path.slice(0, -1) : ctx.path;
    const segs = path.split('/').slice(1);
    if (segs[0] !== 'apis' || segs.length > 2 || segs[1] === '') return local(ctx);
    const specs = apiServices.remote().map(apiServiceSpec);
    const group = segs[1];
    const mine = group === undefined ? specs : specs.filter((s) => s.group === group);
    if (mine.length === 0) return local(ctx);
    const priorities = new Priorities(apiServices.all().map(apiServiceSpec));
    if (group !== undefined) {
      const doc = await localDocument<APIGroup>(ctx, local);
      sendJSON(ctx, { kind: 'APIGroup', apiVersion: 'v1', ...mergeGroup(group, doc, mine, priorities) });
      return true;
    }
    if (negotiateDiscovery(ctx.get('Accept')) === 'aggregated') {
      const doc = await localDocument<APIGroupDiscoveryList>(ctx, local);
      if (!doc) return local(ctx);
      sendAggregated(ctx, mergeAggregated(doc, remote.versions(), priorities));
      return true;
    }
    const doc = await localDocument<APIGroupList>(ctx, local);
    if (!doc) return local(ctx);
    sendJSON(ctx, mergeGroupList(doc, specs, priorities));
    return true;
  };
}
