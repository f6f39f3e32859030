// Request info: what a request is about, parsed from method and path alone (upstream's
// RequestInfoFactory). Authorization, admission, metrics and routing all read it.

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** Kubernetes verb for resource requests; lower-case HTTP method otherwise. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Remaining path segments after the subresource (proxy paths). */
  parts: string[];
  /** Set for the deprecated `/watch/` path prefix. */
  legacyWatchPrefix?: boolean;
}

const apiPrefixes = new Set(['api', 'apis']);
// Resources whose name-level subpaths are not subresources (namespaces/<ns>/<resource>).
const namespaceSubresources = new Set(['status', 'finalize']);

function isWatchQuery(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w !== null && w !== '' && w !== '0' && w.toLowerCase() !== 'false';
}

export function parseRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  const path = rawPath.split('?')[0];
  const nonResource: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '',
    apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
  const segs = path.replace(/^\/+|\/+$/g, '').split('/').filter((s) => s !== '');
  if (segs.length < 1 || !apiPrefixes.has(segs[0])) return nonResource;
  // A literal of nonResource's shape, not a spread of it (a spread of a dozen members is
  // about 1 us warm, on every request).
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: nonResource.verb, apiPrefix: segs[0], apiGroup: '',
    apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
  let cur = segs.slice(1);
  if (info.apiPrefix === 'api') {
    if (cur.length < 1) return nonResource;
    info.apiGroup = '';
  } else {
    if (cur.length < 2) return nonResource; // /apis and /apis/<group> are discovery
    info.apiGroup = cur[0];
    cur = cur.slice(1);
  }
  info.apiVersion = cur[0];
  cur = cur.slice(1);
  if (cur.length === 0) return nonResource; // group-version discovery
  info.isResourceRequest = true;

  // The deprecated /watch/ prefix turns a GET into a watch.
  if (cur[0] === 'watch') {
    info.legacyWatchPrefix = true;
    cur = cur.slice(1);
  }
  if (cur[0] === 'namespaces' && cur.length > 1) {
    info.namespace = decodeSegment(cur[1]);
    // /namespaces/<ns>/<resource>... addresses a namespaced resource; /namespaces/<ns>
    // and /namespaces/<ns>/status|finalize address the namespace object itself.
    if (cur.length > 2 && !namespaceSubresources.has(cur[2])) cur = cur.slice(2);
  }
  info.resource = cur[0] ?? '';
  if (cur.length >= 2) info.name = decodeSegment(cur[1]);
  if (cur.length >= 3) info.subresource = cur[2];
  if (cur.length >= 4) info.parts = cur.slice(3);
  // For the namespace object, the namespace of the request is its own name.
  if (info.resource === 'namespaces' && info.name) info.namespace = info.name;

  const m = method.toUpperCase();
  const collection = info.name === '';
  if (m === 'GET' || m === 'HEAD') {
    // As upstream: ?watch turns only a collection GET into a watch; the /watch/ prefix
    // makes any GET a watch.
    if (info.legacyWatchPrefix) info.verb = 'watch';
    else if (collection) info.verb = isWatchQuery(query) ? 'watch' : 'list';
    else info.verb = 'get';
    // A collection request selecting one name is authorized as a request for that name.
    if (collection && (info.verb === 'watch' || info.verb === 'list')) {
      const only = exactNameFromFieldSelector(query.get('fieldSelector') ?? '');
      if (only) info.name = only;
    }
  } else if (m === 'POST') info.verb = 'create';
  else if (m === 'PUT') info.verb = 'update';
  else if (m === 'PATCH') info.verb = 'patch';
  else if (m === 'DELETE') info.verb = collection ? 'deletecollection' : 'delete';
  else info.verb = m.toLowerCase();
  return info;
}

function decodeSegment(s: string): string {
  // Nearly every segment has no escape: decoding would return it unchanged.
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** `metadata.name=<x>` (or `==`) as one term of a field selector, when it is a valid path segment. */
function exactNameFromFieldSelector(sel: string): string | undefined {
  for (const term of sel.split(',')) {
    const m = /^\s*metadata\.name\s*==?\s*(.+?)\s*$/.exec(term);
    if (m && m[1] !== '.' && m[1] !== '..' && !/[/%]/.test(m[1])) return m[1];
  }
  return undefined;
}
