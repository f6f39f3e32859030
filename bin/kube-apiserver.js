#!/usr/bin/env node
// The `kube-apiserver` executable (package.json `bin`): upstream's command line, served
// by this package's build (the single-file one when built; see cmd/launch.ts).
import { launch } from '../dist/cmd/launch.js';

await launch();
