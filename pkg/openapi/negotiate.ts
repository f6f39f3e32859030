// Accept-header matching for the OpenAPI endpoints, as upstream's handler does it: walk
// the clauses best first (q, then specificity, then order) and serve the first offered
// media type a clause matches, wildcards included. No match means 406.

interface Clause { type: string; subtype: string; q: number; index: number }

function parse(header: string): Clause[] {
  const out: Clause[] = [];
  header.split(',').forEach((raw, index) => {
    const [range, ...params] = raw.split(';').map((s) => s.trim());
    const slash = range.indexOf('/');
    if (slash <= 0) return;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k.toLowerCase() === 'q') q = Number.isFinite(Number(v)) ? Number(v) : 0;
    }
    if (q <= 0) return;
    out.push({ type: range.slice(0, slash).toLowerCase(), subtype: range.slice(slash + 1).toLowerCase(), q, index });
  });
  const specificity = (c: Clause) => (c.type === '*' ? 0 : c.subtype === '*' ? 1 : 2);
  return out.sort((a, b) => b.q - a.q || specificity(b) - specificity(a) || a.index - b.index);
}

/** The first of `offers` (full media types, in server preference) the header accepts. */
export function negotiate<T extends string>(accept: string | undefined, offers: readonly T[]): T | undefined {
  for (const c of parse(accept || '*/*')) {
    for (const offer of offers) {
      const slash = offer.indexOf('/');
      const type = offer.slice(0, slash);
      const subtype = offer.slice(slash + 1);
      if ((c.type === type || c.type === '*') && (c.subtype === subtype || c.subtype === '*')) return offer;
    }
  }
  return undefined;
}
