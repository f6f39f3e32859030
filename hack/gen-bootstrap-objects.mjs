#!/usr/bin/env node
// Generates pkg/generated/bootstrap-objects.json: the objects a start creates on a fresh
// etcd as the create path stores them (pkg/server/bootstrap-objects-gen.ts says how).
// Run after a build (`npx tsc -p tsconfig.json`), then build again:
//   node hack/gen-bootstrap-objects.mjs
// pkg/server/bootstrap-objects.test.ts fails when the file is not what this makes.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatBootstrapObjects, makeBootstrapObjects } from '../dist/pkg/server/bootstrap-objects-gen.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(repo, 'pkg', 'generated', 'bootstrap-objects.json');
const objects = await makeBootstrapObjects();
writeFileSync(target, formatBootstrapObjects(objects));
console.log(`wrote ${Object.keys(objects).length} objects to ${target}`);
