import { build, type BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The published bundle: one minified ESM file with nothing external. `platform: 'neutral'`
 * means no Node built-ins resolve, so a stray `node:` import fails the build.
 */
export const bundleOptions: BuildOptions = {
  entryPoints: [`${root}src/index.ts`],
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'silent',
};

/** Builds the bundle in memory and returns its text. */
export async function bundleText(): Promise<string> {
  const result = await build({ ...bundleOptions, write: false, outfile: 'index.js' });
  const file = result.outputFiles?.[0];
  if (!file) throw new Error('esbuild produced no output');
  return file.text;
}

// `npm run build -w @hostpay/client`: writes dist/index.js (the .d.ts files come from tsc).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build({ ...bundleOptions, outfile: `${root}dist/index.js`, logLevel: 'info' });
}
