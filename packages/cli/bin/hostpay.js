#!/usr/bin/env node
// The CLI ships as TypeScript source. Registering tsx's ESM loader in this process lets Node import
// the .ts files (and the workspace packages they use) directly, so a fresh clone needs `npm ci`
// and no build step before `npx hostpay` works.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
await main();
