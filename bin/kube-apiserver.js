#!/usr/bin/env node
// kube-apiserver served by this package's build (the single-file one when built; see
// cmd/launch.ts): what the `kube-apiserver` executable (bin/kube-apiserver, package.json
// `bin`) runs when it does not start from its snapshot, under the node flags in
// bin/node-flags. Started without them, V8 refuses the build's code cache (written for them).
import { launch } from '../dist/cmd/launch.js';

await launch();
