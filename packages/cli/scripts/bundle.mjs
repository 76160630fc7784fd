// Bundles the compiled CLI (dist/run.js, from tsc) and what it runs into dist/hostpay.js plus
// lazily loaded chunks, which bin/hostpay.js runs. One file per feature of the module graph
// instead of hundreds nearly halves start-up: most of a cold start was Node resolving and reading
// node_modules files one by one (measured in docs/benchmarks.md).
//
// Left outside the bundle: native code (better-sqlite3), packages that read their own files at
// run time (@fastify/swagger-ui serves its static assets; tiny-secp256k1 loads its WebAssembly), and the drivers loaded only when
// configured (pg, ioredis): they stay ordinary dependencies, resolved from node_modules.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Chunk names carry content hashes: last build's chunks would otherwise pile up (and be packed).
rmSync(`${root}dist/chunks`, { recursive: true, force: true });

await build({
  entryPoints: { hostpay: `${root}dist/run.js` },
  outdir: `${root}dist`,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  legalComments: 'linked',
  external: ['better-sqlite3', '@fastify/swagger-ui', 'tiny-secp256k1', 'pg', 'pg-native', 'ioredis'],
  // Bundled CommonJS modules call require() for Node's own modules: give them the real one.
  banner: {
    js: "import { createRequire as __hostpayRequire } from 'node:module';\nconst require = __hostpayRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
