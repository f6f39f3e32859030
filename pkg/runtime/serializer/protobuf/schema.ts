// The generated descriptors (hack/gen-protobuf.mjs) and the map from an API kind to the
// message that carries it on the wire.
import generated from '../../../generated/protobuf-schema.json' with { type: 'json' };
import { parseApiVersion } from '../../scheme.js';

export type ScalarType = 'string' | 'bytes' | 'bool' | 'int32' | 'int64' | 'uint32' | 'uint64' | 'double' | 'float';

/** One field of a message, as generated (short keys keep the module small). */
export interface FieldDesc {
  /** Field number. */
  n: number;
  /** JSON name ('' for an inline embedded struct). */
  j: string;
  t: ScalarType | 'msg';
  /** Message type (t = 'msg'), or a map's value message. */
  m?: string;
  /** 1 repeated, 2 map. */
  r?: 1 | 2;
  /** Map key type. */
  k?: ScalarType;
  /** Upstream's encoder writes it even when zero (a Go value field). */
  a?: 1;
  /** JSON omitempty. */
  o?: 1;
  /** JSON-inline embedded struct. */
  i?: 1;
}

const messages = generated as unknown as Record<string, FieldDesc[]>;

export function messageFields(name: string): FieldDesc[] | undefined {
  return messages[name];
}

const metaV1 = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** Upstream's proto package for an API group's version. */
export function protoPackage(group: string, version: string): string {
  switch (group) {
    case '': return `k8s.io.api.core.${version}`;
    case 'meta.k8s.io': return `k8s.io.apimachinery.pkg.apis.meta.${version}`;
    case 'apiextensions.k8s.io': return `k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${version}`;
    case 'apiregistration.k8s.io': return `k8s.io.kube_aggregator.pkg.apis.apiregistration.${version}`;
    case 'internal.apiserver.k8s.io': return `k8s.io.api.apiserverinternal.${version}`;
    case 'audit.k8s.io': return `k8s.io.apiserver.pkg.apis.audit.${version}`;
    default: return `k8s.io.api.${group.split('.')[0]}.${version}`;
  }
}

/** Kinds every group version serves from meta/v1 (upstream registers them into each). */
const metaKinds = new Set(['Status', 'DeleteOptions', 'ListOptions', 'GetOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions', 'WatchEvent']);

/**
 * The message that carries `kind` of `apiVersion`, or undefined when upstream has no
 * protobuf form for it (Table, custom resources).
 */
export function messageForKind(apiVersion: string, kind: string): string | undefined {
  // Asked several times per request (negotiation, storage and response codecs, managed
  // fields): the answer for a pair never changes, and building the name and looking it
  // up among thousands of messages each time showed in the CRUD profiles.
  const byKind = messageNames.get(apiVersion);
  const known = byKind?.get(kind);
  if (known !== undefined) return known ?? undefined;
  const name = lookUpMessage(apiVersion, kind);
  // Kinds and versions a client writes in a body must not grow the memo without bound.
  if (byKind) {
    if (byKind.size < 4096) byKind.set(kind, name ?? null);
  } else if (messageNames.size < 1024) {
    messageNames.set(apiVersion, new Map([[kind, name ?? null]]));
  }
  return name;
}

const messageNames = new Map<string, Map<string, string | null>>();

function lookUpMessage(apiVersion: string, kind: string): string | undefined {
  if (metaKinds.has(kind)) return `${metaV1}.${kind}`;
  const { group, version } = parseApiVersion(apiVersion);
  const name = `${protoPackage(group, version)}.${kind}`;
  return messages[name] ? name : undefined;
}
