// The process entry the bundle starts from (scripts/bundle.mjs → dist/hostpay.js).
import { main } from './main.js';

await main();
