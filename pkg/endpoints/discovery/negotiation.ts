// Which discovery representation an Accept header asks for. Upstream walks the Accept
// clauses in preference order and takes the first one it can serve: a clause naming
// g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList selects the aggregated
// document, a plain media type selects the legacy one, and a clause with a conversion it
// cannot do (another version, another kind, unknown parameters) is skipped.

export type DiscoveryFormat = 'aggregated' | 'legacy';

interface AcceptClause {
  type: string;
  subtype: string;
  q: number;
  params: Map<string, string>;
  index: number;
}

function parseAccept(header: string): AcceptClause[] {
  const out: AcceptClause[] = [];
  header.split(',').forEach((raw, index) => {
    const parts = raw.split(';').map((p) => p.trim());
    const [type, subtype] = (parts[0] ?? '').toLowerCase().split('/');
    if (!type || !subtype) return;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of parts.slice(1)) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const key = p.slice(0, eq).trim().toLowerCase();
      const value = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (key === 'q') q = Number.isNaN(Number(value)) ? 0 : Number(value);
      else params.set(key, value);
    }
    out.push({ type, subtype, q, params, index });
  });
  // Higher q first; among equals, concrete types before wildcards, then header order.
  const specificity = (c: AcceptClause) => (c.type === '*' ? 0 : c.subtype === '*' ? 1 : 2);
  return out.sort((a, b) => b.q - a.q || specificity(b) - specificity(a) || a.index - b.index);
}

const jsonCompatible = (c: AcceptClause) =>
  (c.type === 'application' && (c.subtype === 'json' || c.subtype === '*')) || (c.type === '*' && c.subtype === '*');

// Media types a legacy document can be asked for; we answer all of them with JSON, the
// representation every discovery client accepts.
const legacyTypes = new Set(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/*', '*/*']);

const knownParams = new Set(['g', 'v', 'as', 'pretty', 'charset']);

export function negotiateDiscovery(accept: string | undefined): DiscoveryFormat {
  if (!accept) return 'legacy';
  for (const c of parseAccept(accept)) {
    if (c.q <= 0) continue;
    if ([...c.params.keys()].some((k) => !knownParams.has(k))) continue;
    const g = c.params.get('g');
    const v = c.params.get('v');
    const as = c.params.get('as');
    if (g === undefined && v === undefined && as === undefined) {
      if (legacyTypes.has(`${c.type}/${c.subtype}`)) return 'legacy';
      continue;
    }
    if (g === 'apidiscovery.k8s.io' && v === 'v2beta1' && as === 'APIGroupDiscoveryList' && jsonCompatible(c)) {
      return 'aggregated';
    }
  }
  return 'legacy';
}

/** Content-Type of an aggregated response: the JSON media type with the g/v/as it answers. */
export const aggregatedContentType = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
