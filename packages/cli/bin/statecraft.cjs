#!/usr/bin/env node
// Loads the CLI's one bundle (packages/cli/scripts/bundle.mjs, built by `npm run build`) as a
// classic script with a V8 code cache kept beside it: compiling 1.4 MB of JavaScript was most of
// every start, and Node 20 has no module compile cache. V8 checks a cache against itself (its
// version and flags) but against the source only by its length, so an edited bundle of the same
// length would run the old bytecode: the cache is therefore keyed by the sha256 of the bundle's
// bytes, kept in front of V8's data. A cache that does not match (another Node, another bundle) is
// written anew when this run ends, and one that cannot be written is simply not used — it never
// changes what runs.
// This file is CommonJS itself: an ES module entry costs every start the ESM loader.
'use strict';
const { Buffer } = require('node:buffer');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');

// A bare `--version` needs none of the CLI: answered from package.json before the 1.5 MB bundle
// is read, compiled and evaluated (every verb's module graph), so it starts as fast as node.
const words = process.argv.slice(2);
if (words.length === 1 && (words[0] === '--version' || words[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')).version}\n`);
  return;
}

const { createHash } = require('node:crypto');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'statecraft.cjs');
const cacheFile = `${bundle}.v8-cache`;

const source = readFileSync(bundle);
const key = createHash('sha256').update(source).digest();
let cachedData;
try {
  const kept = readFileSync(cacheFile);
  if (kept.length > key.length && kept.subarray(0, key.length).equals(key)) cachedData = kept.subarray(key.length);
} catch {
  cachedData = undefined;
}
const script = new vm.Script(Module.wrap(source.toString('utf8')), { filename: bundle, ...(cachedData === undefined ? {} : { cachedData }) });
if (cachedData === undefined || script.cachedDataRejected === true) {
  process.once('beforeExit', () => {
    const partial = `${cacheFile}.${process.pid}`;
    try {
      writeFileSync(partial, Buffer.concat([key, script.createCachedData()]));
      renameSync(partial, cacheFile);
    } catch {
      // A read-only install runs without a cache: slower to start, otherwise the same.
    }
  });
}
const bundleModule = new Module(bundle);
bundleModule.filename = bundle;
script.runInThisContext()(bundleModule.exports, Module.createRequire(bundle), bundleModule, bundle, dirname(bundle));
