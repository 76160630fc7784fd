// Builds the browser fronts into dist/: the operator console (packages/server/console) into
// dist/console and the merchant dashboard (packages/server/dashboard) into dist/dashboard, both
// Preact over the shared kit (packages/server/ui-kit). Each is index.html plus one script and one
// stylesheet named by their content hash, which the server serves with a year's caching and the
// page's strict CSP (no inline script or style: the HTML only links the two files, with
// Subresource Integrity). Run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frontMessages } from './front-messages.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const FRONTS = [
  {
    name: 'console',
    entry: 'console/main.tsx',
    title: 'hostpay console',
    noscript: 'The hostpay console needs JavaScript; the operator API (/admin/v1) and the CLI do not.',
  },
  {
    name: 'dashboard',
    entry: 'dashboard/main.tsx',
    title: 'hostpay dashboard',
    noscript: 'The hostpay dashboard needs JavaScript; the merchant API (/api/v1) and the CLI do not.',
  },
];

// One plugin for both fronts: the catalogues are read once.
const messages = frontMessages(root);

for (const front of FRONTS) {
  const out = `${root}dist/${front.name}`;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(`${out}/assets`, { recursive: true });

  const result = await build({
    entryPoints: { [front.name]: `${root}${front.entry}` },
    outdir: `${out}/assets`,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    conditions: ['hostpay-source'],
    legalComments: 'linked',
    metafile: true,
    plugins: [messages],
    logLevel: 'warning',
  });

  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  const sri = (file) =>
    `sha384-${createHash('sha384')
      .update(readFileSync(`${out}/assets/${file}`))
      .digest('base64')}`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${front.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/${front.name}/assets/${css}" integrity="${sri(css)}">
<script type="module" src="/${front.name}/assets/${js}" integrity="${sri(js)}"></script>
</head>
<body>
<div id="app"></div>
<noscript>${front.noscript}</noscript>
</body>
</html>
`;
  writeFileSync(`${out}/index.html`, html);
}
