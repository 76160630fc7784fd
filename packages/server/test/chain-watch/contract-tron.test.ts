import { chainContract } from './contract.js';
import { tronHarness } from './stand-ins/tron-harness.js';

/**
 * The generic contract against the java-tron stand-in (its API key header required, as TronGrid
 * does), paid in USDT (TRC-20 Transfer logs). TRX payments are covered by tron.test.ts: the demo
 * merchant has no TRX fee schedule to price a TRX checkout with.
 */
chainContract(tronHarness({ asset: 'USDT' }), { amount: '25' });
