import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The console's built files (scripts/build-console.mjs writes them to dist/console at
 * `npm run build`): index.html and content-hashed assets, read once at start-up. Located through
 * the package's own package.json so it works from src/ (tests), dist/ and the CLI bundle alike.
 */
export interface ConsoleFiles {
  index: Buffer;
  assets: ReadonlyMap<string, { type: string; body: Buffer }>;
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  map: 'application/json; charset=utf-8',
};

/** Where scripts/build-console.mjs writes a front's files: dist/console, dist/dashboard. */
export function builtFrontDir(front: 'console' | 'dashboard'): string {
  return join(dirname(createRequire(import.meta.url).resolve('@hostpay/server/package.json')), 'dist', front);
}

export function consoleDir(): string {
  return builtFrontDir('console');
}

/** The built console, or undefined when it was not built (the route then says how to build it). */
export function loadConsoleFiles(dir = consoleDir()): ConsoleFiles | undefined {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const assets = new Map<string, { type: string; body: Buffer }>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir)) {
      const type = TYPES[name.slice(name.lastIndexOf('.') + 1)];
      if (type !== undefined && /^[A-Za-z0-9._-]{1,80}$/.test(name))
        assets.set(name, { type, body: readFileSync(join(assetDir, name)) });
    }
  }
  return { index: readFileSync(indexFile), assets };
}
