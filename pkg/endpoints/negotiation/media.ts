// Response media negotiation from the Accept header, as upstream's negotiation package:
// JSON (default), YAML, and the meta.k8s.io "as=" transformations (Table,
// PartialObjectMetadata). Protobuf is not offered for built-ins yet, so a client that
// asks only for protobuf gets 406 and one that lists JSON as a fallback gets JSON.
import { errors } from '../../runtime/errors.js';

export type Transform = 'none' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface MediaChoice {
  /** Content-Type of the response. */
  contentType: string;
  format: 'json' | 'yaml';
  transform: Transform;
  /** Version of meta.k8s.io for the transform (v1 or v1beta1). */
  transformVersion: string;
  pretty: boolean;
}

interface MediaRange { type: string; params: Record<string, string>; q: number }

function parseAccept(header: string): MediaRange[] {
  return header.split(',').map((part) => {
    const [type, ...rawParams] = part.trim().split(';');
    const params: Record<string, string> = {};
    for (const p of rawParams) {
      const i = p.indexOf('=');
      if (i > 0) params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim().replace(/^"|"$/g, '');
    }
    const q = params.q !== undefined ? Number(params.q) : 1;
    return { type: type.trim().toLowerCase(), params, q: Number.isFinite(q) ? q : 1 };
  }).filter((r) => r.type !== '' && r.q > 0);
}

const supportedTransforms = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

export function negotiateResponse(accept: string | undefined, opts: { allowTransforms: boolean; pretty: boolean }): MediaChoice {
  const ranges = parseAccept(accept || 'application/json');
  ranges.sort((a, b) => b.q - a.q);
  for (const r of ranges) {
    const format = formatOf(r.type);
    if (!format) continue;
    const as = r.params.as;
    if (as) {
      if (!opts.allowTransforms || !supportedTransforms.has(as)) continue;
      if (r.params.g !== 'meta.k8s.io' || !['v1', 'v1beta1'].includes(r.params.v ?? '')) continue;
      if (format !== 'json' && format !== 'yaml') continue;
      return { contentType: `application/${format};as=${as};g=meta.k8s.io;v=${r.params.v}`, format, transform: as as Transform, transformVersion: r.params.v!, pretty: opts.pretty };
    }
    return { contentType: format === 'yaml' ? 'application/yaml' : 'application/json', format, transform: 'none', transformVersion: '', pretty: opts.pretty };
  }
  throw errors.notAcceptable('only the following media types are accepted: application/json, application/yaml');
}

function formatOf(type: string): 'json' | 'yaml' | undefined {
  if (type === 'application/json' || type === 'application/*' || type === '*/*' || type === '*') return 'json';
  if (type === 'application/yaml') return 'yaml';
  return undefined;
}
