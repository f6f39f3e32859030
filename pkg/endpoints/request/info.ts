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

/** Nothing after the subresource (nearly every request): one shared, never written. */
const noParts: string[] = [];
Object.freeze(noParts);

/** The path's non-empty segments (leading, trailing and repeated slashes dropped). */
function segmentsOf(path: string): string[] {
  const segs = path.split('/');
  let empty = 0;
  for (const s of segs) if (s === '') empty++;
  return empty === 0 ? segs : segs.filter((s) => s !== '');
}

function nonResourceInfo(path: string, verb: string): RequestInfo {
  return {
    isResourceRequest: false, path, verb, apiPrefix: '', apiGroup: '',
    apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: noParts,
  };
}

// The segments are read by index from a cursor rather than sliced off one by one: the
// same reading, without an array copy per step on every request.
export function parseRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  const q = rawPath.indexOf('?');
  const path = q < 0 ? rawPath : rawPath.slice(0, q);
  const lowerMethod = method.toLowerCase();
  const segs = segmentsOf(path);
  if (segs.length < 1 || !apiPrefixes.has(segs[0]!)) return nonResourceInfo(path, lowerMethod);
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: lowerMethod, apiPrefix: segs[0]!, apiGroup: '',
    apiVersion: '', namespace: '', resource: '', subresource: '', name: '', parts: noParts,
  };
  let at = 1;
  if (info.apiPrefix === 'api') {
    if (segs.length - at < 1) return nonResourceInfo(path, lowerMethod);
    info.apiGroup = '';
  } else {
    // /apis and /apis/<group> are discovery
    if (segs.length - at < 2) return nonResourceInfo(path, lowerMethod);
    info.apiGroup = segs[at]!;
    at++;
  }
  info.apiVersion = segs[at]!;
  at++;
  if (at === segs.length) return nonResourceInfo(path, lowerMethod); // group-version discovery
  info.isResourceRequest = true;

  // The deprecated /watch/ prefix turns a GET into a watch.
  if (segs[at] === 'watch') {
    info.legacyWatchPrefix = true;
    at++;
  }
  let left = segs.length - at;
  if (segs[at] === 'namespaces' && left > 1) {
    info.namespace = decodeSegment(segs[at + 1]!);
    // /namespaces/<ns>/<resource>... addresses a namespaced resource; /namespaces/<ns>
    // and /namespaces/<ns>/status|finalize address the namespace object itself.
    if (left > 2 && !namespaceSubresources.has(segs[at + 2]!)) {
      at += 2;
      left -= 2;
    }
  }
  info.resource = segs[at] ?? '';
  if (left >= 2) info.name = decodeSegment(segs[at + 1]!);
  if (left >= 3) info.subresource = segs[at + 2]!;
  if (left >= 4) info.parts = segs.slice(at + 3);
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
