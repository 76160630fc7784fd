// Builds the operator console (packages/server/console, Preact + uPlot) into dist/console:
// index.html plus one script and one stylesheet named by their content hash, which the server
// serves at /console with a year's caching and the page's strict CSP (no inline script or style:
// the HTML only links the two files, with Subresource Integrity). Run by `npm run build`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/console`;
rmSync(out, { recursive: true, force: true });
mkdirSync(`${out}/assets`, { recursive: true });

const result = await build({
  entryPoints: { console: `${root}console/main.tsx` },
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
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => p.replace(/^.*dist\/console\/assets\//, ''));
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
<title>hostpay console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/${basename(css)}" integrity="${sri(css)}">
<script type="module" src="/console/assets/${basename(js)}" integrity="${sri(js)}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The hostpay console needs JavaScript; the operator API (/admin/v1) and the CLI do not.</noscript>
</body>
</html>
`;
writeFileSync(`${out}/index.html`, html);
