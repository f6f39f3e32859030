// Go type facts for upstream's INTERNAL core types (package "core"), which is what
// upstream's pod update validation diffs. go-types.json (hack/gen-go-types.mjs) holds the
// v1 struct layouts; the internal types are the same except where listed in
// internalStructs below. Named non-struct types not in namedTypes are strings.
import v1Structs from './go-types.json' with { type: 'json' };

export type GoType =
  | { kind: 'string' | 'bool' | 'int' | 'float'; name?: string }
  | { kind: 'ptr'; elem: GoType }
  | { kind: 'slice'; elem: GoType; name?: string }
  | { kind: 'map'; key: GoType; elem: GoType; name?: string }
  | GoStruct;

export interface GoStruct {
  kind: 'struct';
  name: string;
  fields: GoField[];
  /** Upstream's type has an Equal method: cmp compares it as one leaf with it. */
  equal?: (a: GoValue, b: GoValue) => boolean;
}

export interface GoField { go: string; type: GoType; json: string; inline?: boolean }

/** A Go value: scalars as JS scalars, nil as null, structs and maps as Maps, slices as arrays. */
export type GoValue = string | number | boolean | null | GoValue[] | Map<string, GoValue>;

type FieldRow = [string, string, string, number?];

// Internal core types that differ from v1 (pkg/apis/core/types.go, v1.28): the host
// namespace switches live in PodSecurityContext, and PodSpec has no serviceAccount alias.
const internalStructs: Record<string, FieldRow[]> = {
  PodSpec: [
    ['Volumes', '[]Volume', 'volumes'], ['InitContainers', '[]Container', 'initContainers'],
    ['Containers', '[]Container', 'containers'], ['EphemeralContainers', '[]EphemeralContainer', 'ephemeralContainers'],
    ['RestartPolicy', 'RestartPolicy', 'restartPolicy'], ['TerminationGracePeriodSeconds', '*int64', 'terminationGracePeriodSeconds'],
    ['ActiveDeadlineSeconds', '*int64', 'activeDeadlineSeconds'], ['DNSPolicy', 'DNSPolicy', 'dnsPolicy'],
    ['NodeSelector', 'map[string]string', 'nodeSelector'], ['ServiceAccountName', 'string', 'serviceAccountName'],
    ['AutomountServiceAccountToken', '*bool', 'automountServiceAccountToken'], ['NodeName', 'string', 'nodeName'],
    ['SecurityContext', '*PodSecurityContext', 'securityContext'], ['ImagePullSecrets', '[]LocalObjectReference', 'imagePullSecrets'],
    ['Hostname', 'string', 'hostname'], ['Subdomain', 'string', 'subdomain'], ['SetHostnameAsFQDN', '*bool', 'setHostnameAsFQDN'],
    ['Affinity', '*Affinity', 'affinity'], ['SchedulerName', 'string', 'schedulerName'], ['Tolerations', '[]Toleration', 'tolerations'],
    ['HostAliases', '[]HostAlias', 'hostAliases'], ['PriorityClassName', 'string', 'priorityClassName'], ['Priority', '*int32', 'priority'],
    ['PreemptionPolicy', '*PreemptionPolicy', 'preemptionPolicy'], ['DNSConfig', '*PodDNSConfig', 'dnsConfig'],
    ['ReadinessGates', '[]PodReadinessGate', 'readinessGates'], ['RuntimeClassName', '*string', 'runtimeClassName'],
    ['Overhead', 'ResourceList', 'overhead'], ['EnableServiceLinks', '*bool', 'enableServiceLinks'],
    ['TopologySpreadConstraints', '[]TopologySpreadConstraint', 'topologySpreadConstraints'], ['OS', '*PodOS', 'os'],
    ['SchedulingGates', '[]PodSchedulingGate', 'schedulingGates'], ['ResourceClaims', '[]PodResourceClaim', 'resourceClaims'],
  ],
  PodSecurityContext: [
    ['HostNetwork', 'bool', 'hostNetwork'], ['HostPID', 'bool', 'hostPID'], ['HostIPC', 'bool', 'hostIPC'],
    ['ShareProcessNamespace', '*bool', 'shareProcessNamespace'], ['HostUsers', '*bool', 'hostUsers'],
    ['SELinuxOptions', '*SELinuxOptions', 'seLinuxOptions'], ['WindowsOptions', '*WindowsSecurityContextOptions', 'windowsOptions'],
    ['RunAsUser', '*int64', 'runAsUser'], ['RunAsGroup', '*int64', 'runAsGroup'], ['RunAsNonRoot', '*bool', 'runAsNonRoot'],
    ['SupplementalGroups', '[]int64', 'supplementalGroups'], ['FSGroup', '*int64', 'fsGroup'],
    ['FSGroupChangePolicy', '*PodFSGroupChangePolicy', 'fsGroupChangePolicy'], ['Sysctls', '[]Sysctl', 'sysctls'],
    ['SeccompProfile', '*SeccompProfile', 'seccompProfile'],
  ],
  // Defaulted in v1 and so never nil internally.
  ServiceAccountTokenProjection: [
    ['Audience', 'string', 'audience'], ['ExpirationSeconds', 'int64', 'expirationSeconds'], ['Path', 'string', 'path'],
  ],
};

const structRows = v1Structs as unknown as Record<string, FieldRow[]>;

const scalarKinds: Record<string, GoType['kind']> = {
  string: 'string', bool: 'bool', byte: 'int', int: 'int', int32: 'int', int64: 'int', float64: 'float',
};

/** Display names: upstream's Go package names. */
function qualify(name: string): string {
  if (name.startsWith('metav1.')) return `v1.${name.slice(7)}`;
  return name.includes('.') ? name : `core.${name}`;
}

const cache = new Map<string, GoType>();

/** The Go type named by a go-types.json type expression, seen from package `pkg` ('' = core). */
export function goType(expr: string, pkg = ''): GoType {
  const key = `${pkg}|${expr}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const t = parse(expr, pkg);
  cache.set(key, t);
  return t;
}

function parse(expr: string, pkg: string): GoType {
  if (expr.startsWith('*')) return { kind: 'ptr', elem: goType(expr.slice(1), pkg) };
  if (expr.startsWith('[]')) return { kind: 'slice', elem: goType(expr.slice(2), pkg) };
  const m = /^map\[([^\]]+)\](.+)$/.exec(expr);
  if (m) return { kind: 'map', key: goType(m[1], pkg), elem: goType(m[2], pkg) };
  const scalar = scalarKinds[expr];
  if (scalar) return { kind: scalar } as GoType;
  const special = specialTypes[expr];
  if (special) return special();
  const local = pkg && !expr.includes('.') ? `${pkg}.${expr}` : expr;
  if (local === 'ResourceList') return { kind: 'map', key: goType('ResourceName'), elem: goType('resource.Quantity'), name: 'core.ResourceList' };
  const rows = internalStructs[local] ?? structRows[local];
  if (!rows) return { kind: 'string', name: qualify(local) };
  const s: GoStruct = { kind: 'struct', name: qualify(local), fields: [] };
  cache.set(`${pkg}|${expr}`, s); // recursive types resolve to this object
  const inner = local.includes('.') ? local.slice(0, local.indexOf('.')) : '';
  s.fields = rows.map(([go, type, json, inline]) => ({ go, type: goType(type, inner), json, inline: inline === 1 }));
  return s;
}

const specialTypes: Record<string, () => GoType> = {
  'resource.Quantity': quantityType,
  'intstr.IntOrString': () => ({
    kind: 'struct', name: 'intstr.IntOrString',
    fields: [
      { go: 'Type', type: { kind: 'int', name: 'intstr.Type' }, json: '' },
      { go: 'IntVal', type: { kind: 'int' }, json: '' },
      { go: 'StrVal', type: { kind: 'string' }, json: '' },
    ],
  }),
  'metav1.Time': () => ({ kind: 'string', name: 'v1.Time' }),
  'metav1.MicroTime': () => ({ kind: 'string', name: 'v1.MicroTime' }),
  'types.UID': () => ({ kind: 'string', name: 'types.UID' }),
};

/** resource.Quantity: unexported fields, compared by its Equal method. Built by gocmp-value.ts. */
function quantityType(): GoStruct {
  const int64Amount: GoStruct = {
    kind: 'struct', name: 'resource.int64Amount',
    fields: [{ go: 'value', type: { kind: 'int' }, json: '' }, { go: 'scale', type: { kind: 'int', name: 'resource.Scale' }, json: '' }],
  };
  const infDec: GoStruct = {
    kind: 'struct', name: 'resource.infDecAmount',
    fields: [{ go: 'Dec', type: { kind: 'ptr', elem: { kind: 'string', name: 'inf.Dec' } }, json: '' }],
  };
  return {
    kind: 'struct', name: 'resource.Quantity',
    fields: [
      { go: 'i', type: int64Amount, json: '' }, { go: 'd', type: infDec, json: '' },
      { go: 's', type: { kind: 'string' }, json: '' }, { go: 'Format', type: { kind: 'string', name: 'resource.Format' }, json: '' },
    ],
  };
}

/** How cmp's value.TypeString names a type (unqualified package names). */
export function typeString(t: GoType): string {
  switch (t.kind) {
    case 'ptr': return `*${typeString(t.elem)}`;
    case 'slice': return t.name ?? `[]${typeString(t.elem)}`;
    case 'map': return t.name ?? `map[${typeString(t.key)}]${typeString(t.elem)}`;
    case 'struct': return t.name;
    default: return t.name ?? (t.kind === 'int' ? 'int64' : t.kind === 'float' ? 'float64' : t.kind);
  }
}

/** Whether the type has a name of its own (cmp parenthesizes unnamed pointer types). */
export function isNamed(t: GoType): boolean {
  return t.kind === 'struct' || ('name' in t && t.name !== undefined);
}
