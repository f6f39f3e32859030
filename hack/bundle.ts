// The single-file build of kube-apiserver (`npm run build` runs it after tsc): esbuild
// bundles dist/cmd/bundle-entry.js with every dependency into one CommonJS file,
// dist/bundle/kube-apiserver.cjs, then this process evaluates the server's modules from
// it once and writes V8's code cache of them beside it (cmd/launch.ts reads both). Its
// first line is the build id.
// esbuild is the one dev dependency this needs; nothing of it is loaded at run time.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { buildIdLine, bundleFile, codeCacheFile, loadBundle } from '../cmd/launch.js';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..');

// etcd3 reads its .proto file relative to its own directory, which inside the bundle is
// dist/bundle: the path is resolved from the package instead (etcd3 is a dependency).
const etcd3ProtoPath: Plugin = {
  name: 'etcd3-proto-path',
  setup(b) {
    b.onLoad({ filter: /[\\/]etcd3[\\/]lib[\\/]connection-pool\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const from = '`${__dirname}/../proto/rpc.proto`';
      if (!source.includes(from)) throw new Error(`${args.path} no longer loads ${from}: update hack/bundle.ts`);
      return { contents: source.replace(from, 'require.resolve("etcd3/proto/rpc.proto")'), loader: 'js' };
    });
  },
};

async function main(): Promise<void> {
  await build({
    entryPoints: [join(dist, 'cmd', 'bundle-entry.js')],
    outfile: bundleFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Error class names are compared (etcd3's GRPC*Error in storage/etcd/boundary.ts).
    keepNames: true,
    // Without comments and blanks the source V8 keeps is 4 MB, not 6: 6 MB less RSS.
    // Names stay (stack traces name their functions; their positions are the bundle's).
    minifyWhitespace: true,
    minifySyntax: true,
    // The few modules that find files or load lazily from import.meta.url get the bundle's.
    define: { 'import.meta.url': '__bundleURL' },
    banner: { js: 'const __bundleURL = require("node:url").pathToFileURL(__filename).href;' },
    plugins: [etcd3ProtoPath],
    external: ['etcd3/proto/rpc.proto'],
    logLevel: 'warning',
  });
  // The build id names the caches servers train from this bundle (cmd/launch.ts); those
  // of earlier builds go.
  const code = readFileSync(bundleFile, 'utf8');
  writeFileSync(bundleFile, buildIdLine(createHash('sha256').update(code).digest('hex').slice(0, 32)) + code);
  for (const f of readdirSync(dirname(bundleFile))) {
    if (f.endsWith('.trained-cache') || f.endsWith('.tmp')) rmSync(join(dirname(bundleFile), f));
  }
  const { bundle, script } = loadBundle();
  await bundle.loadServer();
  writeFileSync(codeCacheFile, script.createCachedData());
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
