// etcd3's message codecs, generated when the bundle is built rather than at every start.
// protobufjs generates five functions per message type (encode, decode, verify,
// fromObject, toObject) the first time the type is used, as source text compiled with
// `new Function`: for the some hundred etcd messages a start touches, 20-30 ms of its CPU,
// and code V8's cache of the bundle cannot hold. The build asks the same protobufjs
// (etcd3's copy) for the same source from the same definition the bundle loads, and
// writes it into the bundle as ordinary functions: Type.setup takes them from there,
// and generates as before for a type the table does not have or whose fields differ.
import { createRequire } from 'node:module';
import { longToString } from '../pkg/util/long-to-string.js';

type Codegen = ((scope: Record<string, unknown>) => unknown) & { toString(): string };
interface PbType { fullName: string; fieldsArray: Array<{ name: string }> }
interface PbNamespace { nestedArray?: unknown[] }

// etcd3 parses its rpc.proto (and the files it imports) at load, relative to its own
// directory, which inside the bundle is dist/bundle. The build parses them instead, with
// the protobufjs @grpc/proto-loader uses and the option etcd3 parses with (keepCase), and
// the bundle loads the result with proto-loader's fromJSON: the same package definition.
export function etcd3Definition(): string {
  const require = createRequire(import.meta.url);
  const protobufjs = createRequire(require.resolve('@grpc/proto-loader'))('protobufjs') as typeof import('protobufjs');
  const root = new protobufjs.Root().loadSync(require.resolve('etcd3/proto/rpc.proto'), { keepCase: true });
  return JSON.stringify(root.toJSON());
}

/** Each generated function's scope, as Type.setup passes it. */
const scopes = {
  encode: ['Writer', 'types', 'util'],
  decode: ['Reader', 'types', 'util'],
  verify: ['types', 'util'],
  fromObject: ['types', 'util'],
  toObject: ['types', 'util'],
} as const;
type Kind = keyof typeof scopes;

/** What a type's codecs were generated for: its fields, by name in declaration order. */
const fieldsKeySource = 'function (type) { return type.fieldsArray.map(function (f) { return f.name; }).join(","); }';

/**
 * What Long's toString gives, without Long (pkg/util/long-to-string.ts): the generated
 * toObject turns every 64-bit field of every response into a string, and Long's
 * division-based toString, cold, cost 20-40 us a value: 40-150 ms of a start's CPU in
 * profiles, by what etcd's random IDs were.
 */
export const longToStringSource = longToString.toString();

/** etcd3's protobufjs, which the bundle's etcd client uses. */
function etcd3Protobufjs(): Record<string, unknown> {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('etcd3/package.json'))('protobufjs') as Record<string, unknown>;
}

function messageTypes(ns: PbNamespace, Type: new (...a: never[]) => unknown, out: PbType[] = []): PbType[] {
  for (const nested of ns.nestedArray ?? []) {
    if (nested instanceof Type) out.push(nested as unknown as PbType);
    if ((nested as PbNamespace).nestedArray) messageTypes(nested as PbNamespace, Type, out);
  }
  return out;
}

/**
 * Source of the table `__etcdCodecs` (full name -> { fields, encode, decode, ... }, each
 * codec a function of the scope that returns the generated function) and of the
 * `prebuiltCodec(type, kind, generate)` that type.js calls instead of `generate(type)`.
 */
export function prebuiltCodecsSource(definitionJSON: string): string {
  const pb = etcd3Protobufjs() as {
    Root: { fromJSON(json: unknown): PbNamespace & { resolveAll(): void } };
    Type: new (...a: never[]) => unknown;
    encoder(t: PbType): Codegen; decoder(t: PbType): Codegen; verifier(t: PbType): Codegen;
    converter: { fromObject(t: PbType): Codegen; toObject(t: PbType): Codegen };
  };
  const root = pb.Root.fromJSON(JSON.parse(definitionJSON));
  root.resolveAll();
  const generate: Record<Kind, (t: PbType) => Codegen> = {
    encode: (t) => pb.encoder(t), decode: (t) => pb.decoder(t), verify: (t) => pb.verifier(t),
    fromObject: (t) => pb.converter.fromObject(t), toObject: (t) => pb.converter.toObject(t),
  };
  const fieldsKey = new Function(`return ${fieldsKeySource}`)() as (t: PbType) => string;
  const entries = messageTypes(root, pb.Type).map((t) => {
    const codecs = (Object.keys(scopes) as Kind[]).map((kind) => {
      const params = scopes[kind].map((p) => `${p} = s.${p}`).join(', ');
      const source = generate[kind](t).toString().split('util.Long.prototype.toString.call(').join('longToString(');
      return `${kind}: function (s) { var ${params}; return ${source}; }`;
    });
    return `${JSON.stringify(t.fullName)}: { fields: ${JSON.stringify(fieldsKey(t))}, ${codecs.join(',\n')} }`;
  });
  return `var __etcdCodecs = {\n${entries.join(',\n')}\n};
var __etcdCodecFieldsKey = ${fieldsKeySource};
${longToStringSource}
function prebuiltCodec(type, kind, generate) {
  var p = Object.prototype.hasOwnProperty.call(__etcdCodecs, type.fullName) ? __etcdCodecs[type.fullName] : undefined;
  return p !== undefined && p.fields === __etcdCodecFieldsKey(type) ? p[kind] : generate(type);
}
`;
}

/** [from, to] edits of protobufjs's src/type.js: Type.setup asks prebuiltCodec first. */
export const typeSetupEdits: Array<[string, string]> = [
  ['this.encode = encoder(this)({', 'this.encode = prebuiltCodec(this, "encode", encoder)({'],
  ['this.decode = decoder(this)({', 'this.decode = prebuiltCodec(this, "decode", decoder)({'],
  ['this.verify = verifier(this)({', 'this.verify = prebuiltCodec(this, "verify", verifier)({'],
  ['this.fromObject = converter.fromObject(this)({', 'this.fromObject = prebuiltCodec(this, "fromObject", converter.fromObject)({'],
  ['this.toObject = converter.toObject(this)({', 'this.toObject = prebuiltCodec(this, "toObject", converter.toObject)({'],
];
