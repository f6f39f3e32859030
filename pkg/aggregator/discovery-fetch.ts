// Reads one extension server's discovery for one group version, as upstream's
// discovery manager does: its aggregated document (/apis with the v2beta1 Accept, asked
// as system:kube-aggregator) when it serves one, else its legacy resource list
// (/apis/<group>/<version>) converted; with the proxy transport of the APIService.
import type { UserInfo } from '../authentication/user.js';
import type { TransportConfig } from '../util/proxy/transport.js';
import { aggregatedContentType, toResourceDiscovery } from '../endpoints/discovery/index.js';
import type { APIGroupDiscoveryList, APIResourceList, APIVersionDiscovery } from '../endpoints/discovery/types.js';
import { aggregatorUser } from './discovery-check.js';
import { fetchAs, type Fetched } from './fetch.js';

const fetchTimeoutMs = 5_000;

function get(url: URL, transport: TransportConfig, accept: string, user: UserInfo): Promise<Fetched> {
  return fetchAs(url, transport, user, { accept }, fetchTimeoutMs);
}

const isAggregated = (contentType: string) => /g=apidiscovery\.k8s\.io/.test(contentType) && /as=APIGroupDiscoveryList/.test(contentType);

/** The version's entry of the aggregated document; a version it does not list has no resources. */
function fromAggregated(doc: APIGroupDiscoveryList, group: string, version: string): APIVersionDiscovery {
  const g = (doc.items ?? []).find((i) => (i.metadata?.name ?? '') === group);
  const found = g?.versions?.find((v) => v.version === version);
  return found ? { ...found, freshness: 'Current' } : { version, freshness: 'Current' };
}

/** Fetches base's discovery of group/version; throws when neither form can be read. */
export async function fetchVersionDiscovery(base: URL, transport: TransportConfig, group: string, version: string): Promise<APIVersionDiscovery> {
  const agg = await get(new URL('/apis', base), transport, `${aggregatedContentType},application/json`, aggregatorUser);
  if (agg.status === 200 && isAggregated(agg.contentType)) return fromAggregated(JSON.parse(agg.body) as APIGroupDiscoveryList, group, version);
  // Upstream asks for the legacy list as system:aggregator, without groups.
  const path = `/apis/${group}/${version}`;
  const legacy = await get(new URL(path, base), transport, 'application/json', { name: 'system:aggregator', groups: [] });
  if (legacy.status !== 200) throw new Error(`failed to download legacy discovery for ${path}: ${legacy.body}`);
  const list = JSON.parse(legacy.body) as APIResourceList;
  // A kind without its own group version is of the list's.
  const resources = toResourceDiscovery((list.resources ?? []).map((r) => ({ ...r, group: r.group ?? group, version: r.version ?? version })));
  return resources.length > 0 ? { version, resources, freshness: 'Current' } : { version, freshness: 'Current' };
}
