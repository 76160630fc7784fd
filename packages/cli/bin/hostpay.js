#!/usr/bin/env node
// Runs the compiled CLI: dist/hostpay.js, the tsc output bundled with its dependencies by
// scripts/bundle.mjs (`npm run build`, which `npm ci` runs through `prepare`).
// An older Node would load better-sqlite3 13 (a Node-API 10 addon) and crash without a word:
// say what to do instead, before anything is loaded.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 14)) {
  process.stderr.write(
    `hostpay needs Node.js 22.14 or newer (24 LTS is what CI tests); this is ${process.version}.\n` +
      'In a clone of hostpay, `source .ci/use-node.sh` puts the pinned Node 24 first on PATH for this shell.\n',
  );
  process.exit(2);
}
await import('../dist/hostpay.js');
