// Response media negotiation from the Accept header, as upstream's negotiation package:
// clauses by q-value, then by specificity (type/subtype before type/*, before */*); the
// first clause the server can produce wins. JSON (default), YAML and, for kinds upstream
// has a message for, protobuf; the meta.k8s.io "as=" transformations (Table in JSON and
// YAML only, PartialObjectMetadata also in protobuf).
import { errors } from '../../runtime/errors.js';

export type Transform = 'none' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';
export type MediaFormat = 'json' | 'yaml' | 'protobuf';

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';

export interface MediaChoice {
  /** Content-Type of the response. */
  contentType: string;
  format: MediaFormat;
  transform: Transform;
  /** Version of meta.k8s.io for the transform (v1 or v1beta1). */
  transformVersion: string;
  pretty: boolean;
}

interface MediaRange { type: string; params: Record<string, string>; q: number; order: number }

function parseAccept(header: string): MediaRange[] {
  return header.split(',').map((part, order) => {
    const [type, ...rawParams] = part.trim().split(';');
    const params: Record<string, string> = {};
    for (const p of rawParams) {
      const i = p.indexOf('=');
      if (i > 0) params[p.slice(0, i).trim().toLowerCase()] = p.slice(i + 1).trim().replace(/^"|"$/g, '');
    }
    const q = params.q !== undefined ? Number(params.q) : 1;
    return { type: type.trim().toLowerCase(), params, q: Number.isFinite(q) ? q : 1, order };
  }).filter((r) => r.type !== '' && r.q > 0);
}

/** Wildcards rank after concrete types at the same q (goautoneg's ordering). */
function specificity(type: string): number {
  if (type === '*' || type === '*/*') return 0;
  return type.endsWith('/*') ? 1 : 2;
}

const supportedTransforms = new Set(['Table', 'PartialObjectMetadata', 'PartialObjectMetadataList']);

export interface NegotiationOptions {
  allowTransforms: boolean;
  pretty: boolean;
  /** The kind has a protobuf form (built-in objects; not custom resources). */
  protobuf?: boolean;
}

/** The media types named in 406 answers, as upstream lists its serializers. */
export function acceptedMediaTypes(protobuf: boolean): string {
  return protobuf ? `application/json, application/yaml, ${protobufMediaType}` : 'application/json, application/yaml';
}

export function negotiateResponse(accept: string | undefined, opts: NegotiationOptions): MediaChoice {
  const ranges = parseAccept(accept || 'application/json');
  ranges.sort((a, b) => b.q - a.q || specificity(b.type) - specificity(a.type) || a.order - b.order);
  for (const r of ranges) {
    const format = formatOf(r.type, opts.protobuf ?? false);
    if (!format) continue;
    // The response names only the serializer's media type, as upstream's does, transform or
    // not: a client tells a Table from the body's kind.
    const contentType = format === 'protobuf' ? protobufMediaType : format === 'yaml' ? 'application/yaml' : 'application/json';
    const as = r.params.as;
    if (as) {
      if (!opts.allowTransforms || !supportedTransforms.has(as)) continue;
      if (r.params.g !== 'meta.k8s.io' || !['v1', 'v1beta1'].includes(r.params.v ?? '')) continue;
      // Tables have no protobuf form upstream.
      if (format === 'protobuf' && as === 'Table') continue;
      return { contentType, format, transform: as as Transform, transformVersion: r.params.v!, pretty: opts.pretty };
    }
    return { contentType, format, transform: 'none', transformVersion: '', pretty: opts.pretty };
  }
  throw errors.notAcceptable(`only the following media types are accepted: ${acceptedMediaTypes(opts.protobuf ?? false)}`);
}

function formatOf(type: string, protobuf: boolean): MediaFormat | undefined {
  if (type === 'application/json' || type === 'application/*' || type === '*/*' || type === '*') return 'json';
  if (type === 'application/yaml') return 'yaml';
  if (type === protobufMediaType && protobuf) return 'protobuf';
  return undefined;
}
