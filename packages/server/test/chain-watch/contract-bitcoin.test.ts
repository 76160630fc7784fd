import { chainContract } from './contract.js';
import { BitcoinCoreStandIn } from './stand-ins/bitcoin-core.js';
import { EsploraStandIn } from './stand-ins/esplora.js';

/**
 * The generic contract on both Bitcoin adapters, each against its stand-in on 127.0.0.1 (no
 * Bitcoin node can be installed here): seen, confirmed at 2, retracted by a reorganisation,
 * another network refused, the cursor across a restart, one watcher per chain.
 */
chainContract(new EsploraStandIn());
chainContract(new BitcoinCoreStandIn());
