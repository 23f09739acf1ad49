// The entry node runs to build the CLI's V8 startup snapshot (`node --snapshot-blob <blob>
// --build-snapshot snapshot-builder.cjs`, from bundle.mjs): it evaluates the one bundle
// (dist/bundle/statecraft.cjs) — every module loaded, every zod schema constructed, commander's
// verbs registered — and the heap it leaves is what `bin/statecraft` starts from, instead of
// doing all of that again at every start. The bundle's own main (packages/cli/src/main.ts) sees
// the build and hands node its entry for the snapshot's start instead of running.
//
// The bundle is compiled with V8's lazy compilation off, then the flag is put back: every function
// is compiled once here, so a start from the snapshot compiles less than one built lazily. The
// flag must be back at its default before the snapshot is taken: node refuses a snapshot whose V8
// flags differ from the starting process's.
//
// Only node's built-in modules can be required while a snapshot is built; the bundle requires
// nothing else (packages are found at run time by createRequire, from the bundle's path).
'use strict';
const { readFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'statecraft.cjs');
v8.setFlagsFromString('--no-lazy');
const evaluate = vm.runInThisContext(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle });
v8.setFlagsFromString('--lazy');
const bundleModule = { exports: {} };
evaluate(bundleModule.exports, require, bundleModule, bundle, dirname(bundle));
