import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Tests spawn the real `hostpay` bin, which runs compiled JavaScript: rebuild what changed first
 * (`tsc -b` is incremental, ~1 s when nothing did; the bundle takes ~1 s) so a test never runs
 * yesterday's dist/. The same three steps as `npm run build` (the last builds the operator console's pages).
 */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['packages/cli/scripts/bundle.mjs'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['packages/server/scripts/build-console.mjs'], { stdio: 'inherit' });
}
