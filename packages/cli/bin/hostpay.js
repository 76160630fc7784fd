#!/usr/bin/env node
// Runs the compiled CLI: dist/hostpay.js, the tsc output bundled with its dependencies by
// scripts/bundle.mjs (`npm run build`, which `npm ci` runs through `prepare`).
await import('../dist/hostpay.js');
