// fast-check arbitraries for requests a client can send: a target object's path with the
// path tricks upstream must survive, query parameters (selectors, continue tokens,
// resourceVersion, timeouts...), identity headers (Authorization, Impersonate-*), Accept and
// Content-Type, and a body for every decoder behind them (JSON, YAML, protobuf, JSON patch,
// merge patch, strategic merge patch, apply configurations, associative lists that do not
// fit their keys). Mostly malformed, sometimes valid, so both the error paths and the
// stores behind them are reached.
import fc from 'fast-check';
import { conditionsList, containersList, setAt } from './keyed-lists.js';

export const FUZZ_NAMESPACE = 'fuzz';
/** A token of a system:masters user, so a request without a client cert can still get far. */
export const FUZZ_ADMIN_TOKEN = 'fuzz-admin-token';

export interface Target {
  collection: string;
  name: string;
  apiVersion: string;
  kind: string;
  subresources: string[];
  /** A valid object of the kind, the start of most bodies. */
  sample: Record<string, unknown>;
}

const nsPath = `/api/v1/namespaces/${FUZZ_NAMESPACE}`;
export const targets: Target[] = [
  {
    collection: `${nsPath}/configmaps`, name: 'cm-0', apiVersion: 'v1', kind: 'ConfigMap', subresources: [],
    sample: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-0', labels: { app: 'a' } }, data: { k: 'v' } },
  },
  {
    collection: `${nsPath}/pods`, name: 'pod-0', apiVersion: 'v1', kind: 'Pod', subresources: ['status', 'log', 'binding', 'eviction', 'ephemeralcontainers'],
    sample: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod-0' }, spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }] }] } },
  },
  {
    collection: `/apis/apps/v1/namespaces/${FUZZ_NAMESPACE}/deployments`, name: 'dep-0', apiVersion: 'apps/v1', kind: 'Deployment', subresources: ['status', 'scale'],
    sample: {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'dep-0' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    },
  },
  {
    collection: `${nsPath}/secrets`, name: 'secret-0', apiVersion: 'v1', kind: 'Secret', subresources: [],
    sample: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'secret-0' }, data: { k: 'dg==' } },
  },
  {
    collection: '/apis/rbac.authorization.k8s.io/v1/clusterroles', name: 'fuzz-role', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', subresources: [],
    sample: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'fuzz-role' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  },
  {
    collection: '/api/v1/namespaces', name: FUZZ_NAMESPACE, apiVersion: 'v1', kind: 'Namespace', subresources: ['status', 'finalize'],
    sample: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: FUZZ_NAMESPACE } },
  },
];

export type BodyKind = 'json' | 'deep-json' | 'huge-number' | 'duplicate-keys' | 'invalid-utf8' | 'yaml' | 'yaml-alias'
  | 'protobuf' | 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply' | 'keyed-lists' | 'none';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  bodyKind: BodyKind;
  /** Without a client certificate: only the Authorization header (if any) identifies. */
  anonymousTransport: boolean;
}

// ---- strings ----

const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const shortAscii = fc.string({ maxLength: 24 });
const overlong = fc.constantFrom(64, 254, 1000, 70_000).map((n) => 'a'.repeat(n));
const nastyText = fc.oneof(
  anyText, shortAscii, overlong,
  fc.constantFrom('', ' ', '%', '%ZZ', '%00', '%2F', '%2e%2e', '..', '.', '\u0000', '\uffff', '\ud800', '😀', 'é', '\\', '"', "'", '$', '{}', '[]', 'null', 'true', '-1', '1e400', 'a,b', 'a=b=c', '!', '~'),
);

// ---- paths ----

const pathMutation = fc.oneof(
  fc.record({ t: fc.constant('encode-slash' as const), at: fc.nat(), lower: fc.boolean() }),
  fc.record({ t: fc.constant('dot-segment' as const), at: fc.nat(), seg: fc.constantFrom('..', '.', '%2e%2e', '%2E', '.%2e', '..%2F..', '...') }),
  fc.record({ t: fc.constant('double-slash' as const), at: fc.nat() }),
  fc.record({ t: fc.constant('trailing-slash' as const) }),
  fc.record({ t: fc.constant('case' as const), at: fc.nat() }),
  fc.record({ t: fc.constant('replace-segment' as const), at: fc.nat(), seg: nastyText }),
  fc.record({ t: fc.constant('append-segment' as const), seg: nastyText }),
);
type PathMutation = typeof pathMutation extends fc.Arbitrary<infer T> ? T : never;

function mutatePath(path: string, m: PathMutation): string {
  const segs = path.split('/').slice(1);
  const i = 'at' in m ? m.at % Math.max(segs.length, 1) : 0;
  switch (m.t) {
    case 'encode-slash': {
      if (segs.length < 2) return path;
      const j = Math.max(1, i);
      return '/' + segs.slice(0, j).join('/') + (m.lower ? '%2f' : '%2F') + segs.slice(j).join('/');
    }
    case 'dot-segment': segs.splice(i, 0, m.seg); break;
    case 'double-slash': segs.splice(i, 0, ''); break;
    case 'trailing-slash': return path + '/';
    case 'case': segs[i] = (segs[i] ?? '').toUpperCase(); break;
    case 'replace-segment': segs[i] = encodeSometimes(m.seg, m.at); break;
    case 'append-segment': segs.push(encodeSometimes(m.seg, segs.length)); break;
  }
  return '/' + segs.join('/');
}

/** Mostly percent-encoded; every third one raw (the sender escapes only what Node refuses). */
function encodeSometimes(s: string, salt: number): string {
  if (salt % 3 === 0) return s;
  try {
    return encodeURIComponent(s);
  } catch {
    return escape(s); // lone surrogates: %uD800 and friends, a malformed escape as a bonus
  }
}

const nonResourcePaths = ['/', '/api', '/apis', '/api/v1', '/apis/apps', '/apis/apps/v1', '/version', '/healthz', '/livez', '/readyz', '/readyz/etcd', '/metrics',
  '/openapi/v2', '/openapi/v3', '/openapi/v3/api/v1', '/.well-known/openid-configuration', '/openid/v1/jwks', '/logs', '/debug/pprof'];

const targetPath = fc.record({
  target: fc.constantFrom(...targets),
  shape: fc.constantFrom('collection', 'item', 'item', 'subresource', 'watch-path'),
  sub: fc.nat(),
}).map(({ target, shape, sub }) => {
  switch (shape) {
    case 'collection': return target.collection;
    case 'item': return `${target.collection}/${target.name}`;
    case 'subresource': return `${target.collection}/${target.name}/${target.subresources[sub % Math.max(target.subresources.length, 1)] ?? 'status'}`;
    default: return target.collection.replace(/^(\/apis?\/[^]*?\/v1)\//, '$1/watch/');
  }
});

const pathArb = fc.tuple(
  fc.oneof({ weight: 8, arbitrary: targetPath }, { weight: 1, arbitrary: fc.constantFrom(...nonResourcePaths) }),
  // Most requests keep their canonical path, so they get past routing to the decoders.
  fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(pathMutation, { minLength: 1, maxLength: 3 }) }),
).map(([p, ms]) => ms.reduce(mutatePath, p));

// ---- query ----

const labelSelector = fc.oneof(
  fc.constantFrom('app=a', 'app!=a', 'app in (a,b)', 'app notin (a)', '!app', 'app', 'app==a', 'a in (b,c', 'a notin ()', '=', ',', 'x=y,', 'example.com/k=v',
    'a'.repeat(64) + '=v', 'k=' + 'v'.repeat(64), 'k in (' + 'a,'.repeat(1000) + 'a)', 'k>1', 'k<1', 'k=(a)', 'k=a b', '-k=v', 'K=V', 'k/=v', '/k=v'),
  nastyText,
  fc.array(fc.tuple(fc.constantFrom('app', 'a/b', 'x.y/z', '', 'k'), fc.constantFrom('=', '==', '!=', ' in ', ' notin ', ''), fc.constantFrom('a', '(a)', '(a,b)', '', ' '))
    .map(([k, op, v]) => k + op + v), { maxLength: 4 }).map((xs) => xs.join(',')),
);
const fieldSelector = fc.oneof(
  fc.constantFrom('metadata.name=cm-0', 'metadata.name!=cm-0', 'metadata.namespace=fuzz', 'metadata.name==x', 'spec.nodeName=', 'status.phase=Running', 'foo=bar',
    'metadata.name', '=', '=,=', 'metadata.name=a\\,b', 'metadata.name=\\', 'metadata.name in (a)', 'type=Opaque', 'involvedObject.name=x', ',,,'),
  nastyText,
);
const continueToken = fc.oneof(
  nastyText,
  fc.base64String({ maxLength: 60 }),
  fc.tuple(fc.record({
    v: fc.constantFrom('meta.k8s.io/v1', 'v2', '', 1),
    rv: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1e30, 9007199254740993, '5', null)),
    start: fc.oneof(nastyText, fc.constantFrom('cm-0\u0000', '../', '/', '../../secrets/x', 'cm-0/../../')),
  }, { requiredKeys: [] }), fc.boolean()).map(([o, url]) => Buffer.from(JSON.stringify(o)).toString(url ? 'base64url' : 'base64')),
);
// A revision etcd has not reached (within uint64) makes upstream wait 3 s before its 504, so
// it is rare here; past uint64 it is a 400 at once.
const resourceVersion = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('0', '', '1', '-1', '99999999999999999999999', '18446744073709551616', '1e3', 'abc', '0x10', ' 1', '01', '1.5') },
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 2000 }).map(String) },
  { weight: 5, arbitrary: fc.bigInt({ min: 1n << 64n, max: 1n << 70n }).map(String) },
  { weight: 1, arbitrary: fc.constant('9223372036854775807') },
);
const goDuration = fc.oneof(
  fc.constantFrom('1s', '10ms', '-1s', '0', '0s', '1h', '1.5s', 'abc', '9999999999h', '1us', '1ns', '5m0s', '1e3s', '', 's', '1', '.s', '1h2m3s4ms5us6ns', '9223372036854775807ns'),
  fc.tuple(fc.double({ noNaN: false }), fc.constantFrom('ns', 'us', 'µs', 'ms', 's', 'm', 'h', '', 'd')).map(([n, u]) => `${n}${u}`),
);
const intish = fc.oneof(fc.constantFrom('-1', '0', '1', '2', '500', '99999999999999999999', 'abc', '1.5', '', ' 3', '0x5', '1e2'), fc.integer().map(String));

const queryParam = fc.oneof(
  labelSelector.map((v) => ['labelSelector', v] as const),
  fieldSelector.map((v) => ['fieldSelector', v] as const),
  continueToken.map((v) => ['continue', v] as const),
  resourceVersion.map((v) => ['resourceVersion', v] as const),
  fc.constantFrom('NotOlderThan', 'Exact', 'foo', '').map((v) => ['resourceVersionMatch', v] as const),
  intish.map((v) => ['limit', v] as const),
  intish.map((v) => ['timeoutSeconds', v] as const),
  goDuration.map((v) => ['timeout', v] as const),
  fc.constantFrom('true', 'false', '1', '0', 'yes', '').map((v) => ['watch', v] as const),
  fc.constantFrom('All', 'foo', '', 'All,All').map((v) => ['dryRun', v] as const),
  fc.oneof(nastyText, fc.constantFrom('kubectl', 'm'.repeat(129))).map((v) => ['fieldManager', v] as const),
  fc.constantFrom('Strict', 'Warn', 'Ignore', 'bogus', '').map((v) => ['fieldValidation', v] as const),
  fc.constantFrom('true', 'false', 'x').map((v) => ['force', v] as const),
  fc.constantFrom('Orphan', 'Background', 'Foreground', 'bogus').map((v) => ['propagationPolicy', v] as const),
  intish.map((v) => ['gracePeriodSeconds', v] as const),
  fc.constantFrom('true', 'false', 'x').map((v) => ['allowWatchBookmarks', v] as const),
  fc.constantFrom('true', 'false', 'x').map((v) => ['sendInitialEvents', v] as const),
  fc.constantFrom('true', 'x').map((v) => ['pretty', v] as const),
  fc.tuple(nastyText, nastyText),
);

const queryArb = fc.array(fc.tuple(queryParam, fc.nat()), { maxLength: 4 }).map((ps) => {
  if (ps.length === 0) return '';
  // Mostly properly encoded; now and then raw, so the server's own query parsing is hit too.
  return '?' + ps.map(([[k, v], salt]) => (salt % 5 === 0 ? `${k}=${v}` : `${encodeSometimes(k, 1)}=${encodeSometimes(v, 1)}`)).join('&');
});

// ---- headers ----

const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant(`Bearer ${FUZZ_ADMIN_TOKEN}`),
  nastyText.map((t) => `Bearer ${t}`),
  fc.constantFrom('Bearer', 'Bearer ', 'bearer fuzz-admin-token', 'Basic', 'Basic YWRtaW46YWRtaW4=', 'Basic !!!', 'Negotiate abc', `Bearer ${'x'.repeat(20_000)}`,
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.', 'Bearer a.b.c', `Bearer ${FUZZ_ADMIN_TOKEN} extra`),
  nastyText,
);
const impersonation = fc.record({
  'Impersonate-User': fc.oneof(nastyText, fc.constantFrom('system:admin', 'system:anonymous', 'system:serviceaccount:fuzz:default', 'nobody', '')),
  'Impersonate-Group': fc.oneof(nastyText, fc.constantFrom('system:masters', 'system:authenticated', '')),
  'Impersonate-Uid': nastyText,
  'Impersonate-Extra-Scopes': nastyText,
  'Impersonate-Extra-%ZZ': nastyText,
}, { requiredKeys: [] });
const accept = fc.oneof(
  fc.constantFrom('application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', '*/*', 'application/json;as=Table;v=v1;g=meta.k8s.io',
    'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', 'application/json;stream=watch',
    'application/vnd.kubernetes.protobuf;stream=watch', 'text/html', 'application/json;as=Bogus;v=v1;g=meta.k8s.io', 'application/json;;;', ';', 'a/b/c'),
  nastyText,
);

// ---- bodies ----

const jsonValue = fc.jsonValue({ maxDepth: 3 });

function nest(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

function yamlAliasBomb(levels: number): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i <= levels; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return ['apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: bomb}', 'data:', ...lines.map((l) => `  ${l}`)].join('\n');
}

const jsonPatchOp = fc.record({
  op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus', ''),
  path: fc.oneof(fc.constantFrom('/data/x', '/metadata/name', '/metadata/namespace', '/metadata/uid', '/metadata/resourceVersion', '', '/', '/data/~2', '/data/~1x',
    '/spec/containers/-', '/spec/containers/999999999', '/spec/containers/-1', '/metadata/labels/a~1b', '/kind', '/apiVersion', '/metadata/finalizers/0', '/spec/replicas'), nastyText),
  from: fc.constantFrom('/data/k', '/metadata', '/', '/nope'),
  value: jsonValue,
}, { requiredKeys: ['op', 'path'] });

const smpDirectives = fc.oneof(
  fc.constant({ metadata: { labels: { $patch: 'delete' } } }),
  fc.constant({ spec: { containers: [{ name: 'c', $patch: 'delete' }] } }),
  fc.constant({ spec: { containers: [{ $patch: 'replace' }] } }),
  fc.constant({ spec: { $retainKeys: ['containers', 'bogus'], containers: [] } }),
  fc.constant({ spec: { $retainKeys: 'notalist' } }),
  fc.constant({ $patch: 'bogus' }),
  fc.constant({ $patch: 'delete' }),
  fc.constant({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }),
  fc.constant({ metadata: { '$setElementOrder/finalizers': ['a', 'b'] } }),
  fc.constant({ spec: { '$setElementOrder/containers': [{ name: 'zz' }], containers: [{ name: 'c', image: 'x' }] } }),
  fc.constant({ spec: { containers: [{ name: 'c', ports: [{ $patch: 'delete', containerPort: 80 }] }] } }),
  fc.constant({ spec: { containers: 'string' } }),
  fc.constant({ spec: { containers: [{ noName: true }] } }),
  fc.constant({ data: { $patch: 'replace', k: 'w' } }),
);

type Body = { kind: BodyKind; body?: Buffer; contentType?: string };

function withSampleMutation(sample: Record<string, unknown>, extra: unknown, where: number): Record<string, unknown> {
  const copy = structuredClone(sample) as Record<string, unknown>;
  const meta = copy['metadata'] as Record<string, unknown>;
  switch (where % 6) {
    case 0: return copy;
    case 1: meta['labels'] = extra; return copy;
    case 2: copy[where % 2 ? 'spec' : 'data'] = extra; return copy;
    case 3: meta['name'] = extra; return copy;
    case 4: copy['kind'] = extra; return copy;
    default: copy['extraField'] = extra; meta['resourceVersion'] = extra; return copy;
  }
}

/** Where the targets hold associative lists (absent paths are made). */
const keyedListPlaces: Array<{ path: string[]; list: fc.Arbitrary<unknown> }> = [
  { path: ['spec', 'containers'], list: containersList },
  { path: ['spec', 'template', 'spec', 'containers'], list: containersList },
  { path: ['status', 'conditions'], list: conditionsList },
];

/** The sample with an associative list that does not fit its keys, as any body that carries an object. */
const keyedListBody = (target: Target): fc.Arbitrary<Body> => fc.tuple(
  fc.constantFrom(...keyedListPlaces).chain((p) => p.list.map((list) => ({ path: p.path, list }))),
  fc.constantFrom('application/json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'),
).map(([{ path, list }, contentType]) => ({ kind: 'keyed-lists' as const, contentType, body: Buffer.from(JSON.stringify(setAt(target.sample, path, list))) }));

const bodyArb = (target: Target): fc.Arbitrary<Body> => fc.oneof(
  keyedListBody(target),
  fc.constant<Body>({ kind: 'none' }),
  fc.tuple(jsonValue, fc.nat()).map(([x, w]) => ({ kind: 'json' as const, body: Buffer.from(JSON.stringify(withSampleMutation(target.sample, x, w))), contentType: 'application/json' })),
  fc.tuple(fc.constantFrom(100, 1000, 10_000, 100_000), fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{"metadata":', '}'])).map(([d, [o, c]]) => ({
    kind: 'deep-json' as const, body: Buffer.from(`{"apiVersion":"${target.apiVersion}","kind":"${target.kind}","metadata":{"name":"deep"},"data":${nest(d, o!, c!)}}`), contentType: 'application/json',
  })),
  fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '9007199254740993', '-0', '1.5', '0.1e-400', '1E+2').map((n) => ({
    kind: 'huge-number' as const, contentType: 'application/json',
    body: Buffer.from(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"num","generation":${n}},"spec":{"replicas":${n},"selector":{"matchLabels":{"a":"a"}},"template":{"metadata":{"labels":{"a":"a"}},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":${n}}]}]}}}}`),
  })),
  fc.constantFrom(
    `{"apiVersion":"v1","kind":"ConfigMap","kind":"Secret","metadata":{"name":"dup"}}`,
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","name":"dup2"}}`,
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"k":"a","k":"b"}}`,
    `{"apiVersion":"v1","apiVersion":"v2","kind":"ConfigMap","metadata":{"name":"dup"}}`,
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","namespace":"fuzz","namespace":"kube-system"}}`,
  ).map((s) => ({ kind: 'duplicate-keys' as const, body: Buffer.from(s), contentType: 'application/json' })),
  fc.tuple(fc.constantFrom([0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc3], [0x80]), fc.constantFrom('application/json', 'application/yaml'))
    .map(([bytes, ct]) => ({
      kind: 'invalid-utf8' as const, contentType: ct,
      body: Buffer.concat([Buffer.from('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"utf'), Buffer.from(bytes), Buffer.from('"},"data":{"k":"'), Buffer.from(bytes), Buffer.from('"}}')]),
    })),
  fc.tuple(jsonValue, fc.nat()).map(([x, w]) => {
    const obj = withSampleMutation(target.sample, x, w);
    const lines = [`apiVersion: ${target.apiVersion}`, `kind: ${target.kind}`, `metadata: ${JSON.stringify(obj['metadata'])}`, `extra: !!binary aGVsbG8=`, `set: !!set {a, b}`, `tagged: !foo bar`, `odd: !!python/object:os.system ls`];
    return { kind: 'yaml' as const, body: Buffer.from(lines.slice(0, 3 + (w % 5)).join('\n')), contentType: 'application/yaml' };
  }),
  fc.constantFrom(
    yamlAliasBomb(3), yamlAliasBomb(6), yamlAliasBomb(9),
    'apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: merge}\ndata:\n  base: &b {x: "1"}\n  <<: *b\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  <<: {name: merged, namespace: kube-system}\n  labels: {<<: [{a: b}, {c: d}]}\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: &a {name: x, labels: *a}\n',
    'a: &a [*a]\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unknownalias}\ndata: *nope\n',
    '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {? [a, b] : c}\n',
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {1: 2, true: false, ~: null}\n',
    '\t- bad indent',
    '%YAML 9.9\n---\na: b\n',
  ).map((s) => ({ kind: 'yaml-alias' as const, body: Buffer.from(s), contentType: 'application/yaml' })),
  fc.tuple(fc.uint8Array({ maxLength: 200 }), fc.boolean()).map(([bytes, magic]) => ({
    kind: 'protobuf' as const, contentType: 'application/vnd.kubernetes.protobuf',
    body: Buffer.concat([magic ? Buffer.from('k8s\u0000') : Buffer.alloc(0), Buffer.from(bytes)]),
  })),
  fc.oneof(fc.array(jsonPatchOp, { maxLength: 6 }), jsonValue).map((ops) => ({ kind: 'json-patch' as const, body: Buffer.from(JSON.stringify(ops)), contentType: 'application/json-patch+json' })),
  fc.oneof(jsonValue, fc.tuple(jsonValue, fc.nat()).map(([x, w]) => withSampleMutation(target.sample, x, w))).map((p) => ({
    kind: 'merge-patch' as const, body: Buffer.from(JSON.stringify(p)), contentType: 'application/merge-patch+json',
  })),
  fc.oneof(smpDirectives, jsonValue).map((p) => ({ kind: 'strategic-merge-patch' as const, body: Buffer.from(JSON.stringify(p)), contentType: 'application/strategic-merge-patch+json' })),
  fc.tuple(jsonValue, fc.nat(), fc.boolean()).map(([x, w, asYaml]) => {
    const obj = withSampleMutation(target.sample, x, w);
    const text = asYaml ? `apiVersion: ${JSON.stringify(obj['apiVersion'])}\nkind: ${JSON.stringify(obj['kind'])}\nmetadata: ${JSON.stringify(obj['metadata'])}\n` : JSON.stringify(obj);
    return { kind: 'apply' as const, body: Buffer.from(text), contentType: 'application/apply-patch+yaml' };
  }),
);

const methodArb = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  { weight: 2, arbitrary: fc.constantFrom('HEAD', 'OPTIONS') },
  { weight: 1, arbitrary: fc.constantFrom('TRACE', 'PROPFIND', 'FOO', 'get') },
);

const contentTypeOverride = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.oneof(fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/json-patch+json', 'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x', 'application/merge-patch+json', 'application/apply-patch+yaml', ';', ''), nastyText) },
);

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...targets).chain((target) => fc.record({
  method: methodArb,
  path: pathArb,
  query: queryArb,
  body: bodyArb(target),
  authorization,
  anonymousTransport: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  impersonation: fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: impersonation }),
  accept: fc.option(accept, { freq: 3 }),
  contentType: contentTypeOverride,
})).map((r) => {
  const headers: Record<string, string> = { ...r.impersonation } as Record<string, string>;
  if (r.authorization !== undefined) headers['Authorization'] = r.authorization;
  if (r.accept !== null) headers['Accept'] = r.accept;
  const ct = r.contentType ?? r.body.contentType;
  if (ct !== undefined && r.body.body) headers['Content-Type'] = ct;
  return { method: r.method, path: r.path + r.query, headers, body: r.body.body, bodyKind: r.body.kind, anonymousTransport: r.anonymousTransport };
});

/** `n` requests from `seed`, deterministic: a failing run is replayed with the same seed. */
export function generate(n: number, seed: number): FuzzRequest[] {
  return fc.sample(fuzzRequest, { numRuns: n, seed });
}
