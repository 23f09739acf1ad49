#!/usr/bin/env node
// One bundle (packages/cli/scripts/bundle.mjs, built by `npm run build`) rather than dist/main.js:
// loading one file instead of hundreds through the ESM loader halves start-up.
import "../dist/bundle/statecraft.mjs";
