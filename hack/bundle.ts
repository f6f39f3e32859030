// The single-file build of kube-apiserver (`npm run build` runs it after tsc): esbuild
// bundles dist/cmd/bundle-entry.js with every dependency into one CommonJS file,
// dist/bundle/kube-apiserver.cjs, then this process evaluates the server's modules from
// it once and writes V8's code cache of them beside it (cmd/launch.ts reads both). Its
// first line is the build id.
// esbuild is the one dev dependency this needs; nothing of it is loaded at run time.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { build, type Plugin } from 'esbuild';
import { buildIdLine, bundleFile, codeCacheFile, loadBundle } from '../cmd/launch.js';
import { shippedNodeFlags } from '../cmd/node-flags.js';
import { etcd3Definition, prebuiltCodecsSource, typeSetupEdits } from './bundle-etcd-codecs.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `source` with each [from, to] replaced; a `from` no longer there fails the build. */
function patched(file: string, source: string, edits: Array<[string, string]>): string {
  for (const [from, to] of edits) {
    if (!source.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update hack/bundle.ts`);
    source = source.split(from).join(to);
  }
  return source;
}

/** The head of proto-loader's create<Message|Enum>Definition, and the same with `type` and `fileDescriptorProtos` as getters. */
function lazyDefinition(format: string, descriptorName: string, reflected: string): [string, string] {
  return [`    const ${descriptorName} = ${reflected}.toDescriptor('proto3');
    return {
        format: 'Protocol Buffer 3 ${format}',
        type: ${descriptorName}.$type.toObject(${descriptorName}, descriptorOptions),
        fileDescriptorProtos: fileDescriptors,`,
  `    let type;
    return {
        format: 'Protocol Buffer 3 ${format}',
        get type() { if (type === void 0) { descriptor(); const ${descriptorName} = ${reflected}.toDescriptor('proto3'); type = ${descriptorName}.$type.toObject(${descriptorName}, descriptorOptions); } return type; },
        get fileDescriptorProtos() { return typeof fileDescriptors === 'function' ? fileDescriptors() : fileDescriptors; },`];
}

// proto-loader also builds, for every message type of every method, its descriptor and
// the encoded descriptors of all files, for gRPC reflection, which a client never reads:
// a third of loading etcd3. They are made when first read, and protobufjs's descriptor
// extension they need (which parses descriptor.proto's types as it loads: 5-10 ms) is
// loaded then: `descriptor` becomes a function that loads it.
const lazyDescriptors: Array<[string, string]> = [
  [`    const descriptorList = root.toDescriptor('proto3').file;
    const bufferList = descriptorList.map(value => Buffer.from(descriptor.FileDescriptorProto.encode(value).finish()));`,
  `    let buffers;
    const bufferList = () => (buffers !== null && buffers !== void 0 ? buffers : (buffers = (descriptor(), root.toDescriptor('proto3')).file.map(value => Buffer.from(descriptor.FileDescriptorProto.encode(value).finish()))));`],
  lazyDefinition('DescriptorProto', 'messageDescriptor', 'message'),
  lazyDefinition('EnumDescriptorProto', 'enumDescriptor', 'enumType'),
  ['const descriptor = require("protobufjs/ext/descriptor");',
    'let descriptorExtension;\nconst descriptor = () => descriptorExtension !== void 0 ? descriptorExtension : (descriptorExtension = require("protobufjs/ext/descriptor"));'],
  ['(descriptor.FileDescriptorProto', '(descriptor().FileDescriptorProto'],
  [' descriptor.FileDescriptorSet', ' descriptor().FileDescriptorSet'],
];

const grpcLoading: Plugin = {
  name: 'grpc-loading',
  setup(b) {
    const definition = etcd3Definition();
    b.onLoad({ filter: /[\\/]etcd3[\\/]lib[\\/]connection-pool\.js$/ }, async (args) => ({
      contents: patched(args.path, await readFile(args.path, 'utf8'), [[
        '(0, proto_loader_1.loadSync)(`${__dirname}/../proto/rpc.proto`, {',
        `(0, proto_loader_1.fromJSON)(JSON.parse(${JSON.stringify(definition)}), {`,
      ]]),
      loader: 'js',
    }));
    // etcd3's own protobufjs: its message codecs come generated (bundle-etcd-codecs.ts).
    b.onLoad({ filter: /[\\/]etcd3[\\/]node_modules[\\/]protobufjs[\\/]src[\\/]type\.js$/ }, async (args) => ({
      contents: `${patched(args.path, await readFile(args.path, 'utf8'), typeSetupEdits)}\n${prebuiltCodecsSource(definition)}`,
      loader: 'js',
    }));
    // prom-client reads the process's start time as it loads, which the startup snapshot
    // (cmd/snapshot.ts) would fix at build time: read when first collected.
    b.onLoad({ filter: /[\\/]prom-client[\\/]lib[\\/]metrics[\\/]processStartTime\.js$/ }, async (args) => ({
      contents: patched(args.path, await readFile(args.path, 'utf8'), [
        ['const startInSeconds = Math.round(Date.now() / 1000 - process.uptime());', 'let startInSeconds;'],
        ['this.set(labels, startInSeconds);', 'this.set(labels, startInSeconds ??= Math.round(Date.now() / 1000 - process.uptime()));'],
      ]),
      loader: 'js',
    }));
    b.onLoad({ filter: /[\\/]@grpc[\\/]proto-loader[\\/]build[\\/]src[\\/]index\.js$/ }, async (args) => ({
      contents: patched(args.path, await readFile(args.path, 'utf8'), lazyDescriptors),
      loader: 'js',
    }));
  },
};

/**
 * `code` with every non-ASCII character as a \u escape (esbuild leaves them in regular
 * expression literals: µs in duration patterns), which means the same in a string,
 * template, regular expression or identifier: an ASCII bundle is decoded as latin1, in
 * a quarter of the time UTF-8 takes (cmd/launch.ts). No raw template holds one.
 */
function asciiOnly(code: string): string {
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

async function main(): Promise<void> {
  await build({
    entryPoints: [join(dist, 'cmd', 'bundle-entry.js')],
    outfile: bundleFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // No keepNames: its __name() runs at every creation of a named closure (some 6,000
    // call sites), 0.07 s of a start's CPU and 7 MiB of RSS. Classes whose names collide
    // across modules are renamed (etcd3's GRPCUnavailableError becomes ...Error2), so no
    // code may compare class names: storage/etcd/boundary.ts tests classes with instanceof.
    // Without comments and blanks the source V8 keeps is 4 MB, not 6: 6 MB less RSS.
    // Names stay (stack traces name their functions; their positions are the bundle's).
    minifyWhitespace: true,
    minifySyntax: true,
    // The few modules that find files or load lazily from import.meta.url get the bundle's.
    define: { 'import.meta.url': '__bundleURL' },
    banner: { js: 'const __bundleURL = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [grpcLoading],
    logLevel: 'warning',
  });
  // The build id names the caches servers train from this bundle (cmd/launch.ts); those
  // of earlier builds go, and so does the startup snapshot trained from them (cmd/snapshot.ts).
  const code = asciiOnly(readFileSync(bundleFile, 'utf8'));
  writeFileSync(bundleFile, buildIdLine(createHash('sha256').update(code).digest('hex').slice(0, 32)) + code);
  for (const f of readdirSync(dirname(bundleFile))) {
    if (/\.(trained-cache|tmp|blob|blob\.node|lock)$/.test(f)) rmSync(join(dirname(bundleFile), f));
  }
  const { bundle, script } = loadBundle();
  await bundle.loadServer();
  // V8 tags a code cache with the flags in force when it is written and refuses it under
  // others: those every start takes (bin/node-flags).
  setFlagsFromString(shippedNodeFlags().join(' '));
  writeFileSync(codeCacheFile, script.createCachedData());
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
