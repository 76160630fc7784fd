// Bundles the compiled CLI (dist/run.js, from tsc) and what it runs into dist/hostpay.js plus
// lazily loaded chunks, which bin/hostpay.js runs. One file per feature of the module graph
// instead of hundreds nearly halves start-up: most of a cold start was Node resolving and reading
// node_modules files one by one (measured in docs/benchmarks.md).
//
// Left outside the bundle: native code (better-sqlite3, @node-rs/argon2, secp256k1), packages that read their own files at
// run time (@fastify/swagger-ui serves its static assets; tiny-secp256k1 loads its WebAssembly; pdfkit its
// standard fonts, and the documents' font is a file of dejavu-fonts-ttf), and the drivers loaded only when
// configured (pg, ioredis): they stay ordinary dependencies, resolved from node_modules.
//
// A rebuild never disturbs a `hostpay` running from the same checkout (a test run rebuilds while
// another terminal's command runs): esbuild writes into a fresh folder, the chunks (content-hashed
// names) are moved in first, then dist/hostpay.js is replaced by one rename. A starting process
// reads either the old entry or the new one, whole, and finds every chunk it names. The previous
// build's chunks stay until the next build, so a process started on it can still load a chunk
// lazily (its `import()` of a command's code) after this one.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Which chunk files the current and the previous build use: the ones pruning keeps. */
const MANIFEST = '.chunks.json';
/** Held while a build swaps its files in, so two builds at once (two test runs) do not prune each other's chunks. */
const LOCK = '.bundle-lock';
const STALE_LOCK_MS = 60_000;

/**
 * Bundles `entry` into `dist/<name>.js` and `dist/chunks/`, swapping the result in as described
 * above. Returns the chunk files of this build.
 */
export async function bundle({ entry, dist, name = 'hostpay', external = [], banner }) {
  const staging = join(dist, `.bundle-${process.pid}-${Date.now()}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    await build({
      entryPoints: { [name]: entry },
      outdir: staging,
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      legalComments: 'linked',
      external,
      ...(banner === undefined ? {} : { banner: { js: banner } }),
      logLevel: 'warning',
    });
    asciiOnly(staging);
    return await withLock(join(dist, LOCK), () => swapIn(staging, dist));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Rewrites the characters outside ASCII that esbuild leaves in its output (it escapes them in
 * strings, regular expressions and identifiers, but not in the comments it keeps nor in tagged
 * templates) as \uXXXX escapes. One such character made Node hold the whole file's source as a
 * two-byte string: each of the two 2.4 MB chunks a server loads took 4.7 MB of its memory instead
 * of 2.4 MB (docs/benchmarks.md, "Start-up and memory"). In a comment the escape is only text; in
 * a template it cooks to the same character (the pages' `html` tag reads the cooked strings). The
 * columns after such a character on its line move in the source map.
 */
function asciiOnly(dir) {
  for (const entry of readdirSync(dir, { recursive: true })) {
    const file = join(dir, entry);
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(file, 'utf8');
    // Without the u flag the pattern matches UTF-16 code units: a character outside the BMP
    // becomes its two surrogate escapes.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range ends at the last ASCII character
    const out = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (out === text) continue;
    writeFileSync(file, out);
  }
}

function swapIn(staging, dist) {
  const chunkDir = join(dist, 'chunks');
  mkdirSync(chunkDir, { recursive: true });
  const chunks = existsSync(join(staging, 'chunks')) ? readdirSync(join(staging, 'chunks')) : [];
  // Same name, same content (the hash is of the content): replacing one is invisible to readers.
  for (const file of chunks) renameSync(join(staging, 'chunks', file), join(chunkDir, file));
  // The entry last, each file by one rename: its map and legal notice first, the code itself at the end.
  const entries = readdirSync(staging).filter((f) => f !== 'chunks');
  const code = entries.filter((f) => f.endsWith('.js'));
  for (const file of [...entries.filter((f) => !f.endsWith('.js')), ...code]) {
    renameSync(join(staging, file), join(dist, file));
  }
  prune(chunkDir, chunks);
  return chunks;
}

/** Removes the chunks neither this build nor the previous one uses (they would pile up, and be packed). */
function prune(chunkDir, current) {
  const manifestFile = join(chunkDir, MANIFEST);
  let previous = [];
  try {
    previous = JSON.parse(readFileSync(manifestFile, 'utf8')).current ?? [];
  } catch {
    // No manifest (first build, or one from before it existed): keep only this build's chunks.
  }
  const keep = new Set([...current, ...previous, MANIFEST]);
  for (const file of readdirSync(chunkDir)) if (!keep.has(file)) rmSync(join(chunkDir, file), { force: true });
  const tmp = `${manifestFile}.${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify({ current, previous })}\n`);
  renameSync(tmp, manifestFile);
}

async function withLock(lock, fn) {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A build that crashed while holding it leaves it behind: take it over after a while.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await bundle({
    entry: `${root}dist/run.js`,
    dist: `${root}dist`,
    external: [
      'better-sqlite3',
      '@node-rs/argon2',
      '@fastify/swagger-ui',
      'tiny-secp256k1',
      'secp256k1',
      'pg',
      'pg-native',
      'ioredis',
      'pdfkit',
      // Fastify's default schema compilers (Ajv, fast-json-stringify): both instances are built
      // with ours (server/src/http/fastify-compilers.ts), so Fastify never requires these; bundled,
      // their ~600 kB (with ajv, fast-uri, ajv-formats) were parsed at every start for nothing.
      // Left outside, Fastify would require them from node_modules (npm installs them with
      // fastify) only for an instance built without our compilers, which startup-modules.test.ts
      // would catch.
      '@fastify/ajv-compiler',
      '@fastify/fast-json-stringify-compiler',
    ],
    // Bundled CommonJS modules call require() for Node's own modules: give them the real one.
    banner:
      "import { createRequire as __hostpayRequire } from 'node:module';\nconst require = __hostpayRequire(import.meta.url);",
  });
}
