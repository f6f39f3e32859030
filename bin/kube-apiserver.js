#!/usr/bin/env node
// The `kube-apiserver` executable (package.json `bin`): upstream's command line, served
// by this package's build.
import '../dist/cmd/apiserver.js';
