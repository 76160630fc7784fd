import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Tests spawn the real `hostpay` bin, which runs compiled JavaScript: rebuild what changed first
 * (`tsc -b` is incremental, ~1 s when nothing did) so a test never runs yesterday's dist/.
 */
export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
}
