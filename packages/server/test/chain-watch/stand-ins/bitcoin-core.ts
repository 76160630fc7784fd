import type { Server } from 'node:http';
import { satsToBtcText } from '../../../src/features/chain-watch/adapters/bitcoin/amount.js';
import type { ChainHarness } from '../harness.js';
import { type Block, BtcChain, readBody, scriptOf, type Tx } from './btc-chain.js';
import { type Answer, close, listen, type Override, send } from './serve.js';

/** Amounts are written as JSON numbers with 8 decimals, as Core's UniValue does: put in raw after stringify. */
const AMOUNT = (sats: bigint) => `@@btc:${sats}@@`;
const rawAmounts = (json: string) => json.replace(/"@@btc:(\d+)@@"/g, (_, s: string) => satsToBtcText(BigInt(s)));

/**
 * A stand-in for Bitcoin Core's JSON-RPC (1.0 requests, Basic auth) on 127.0.0.1: the methods the
 * adapter calls, with Core's answer shapes: `{ result, error, id }`; RPC errors with HTTP 500 (404
 * for an unknown method); `getblock <hash> 2` with decoded transactions, amounts as BTC numbers.
 */
export class BitcoinCoreStandIn implements ChainHarness {
  readonly family = 'btc' as const;
  readonly kind = 'bitcoin-core';
  readonly chain = 'BTC';
  readonly asset = 'BTC';
  readonly btc = new BtcChain();
  readonly user = 'hostpay';
  readonly password = 'c0re-rpc-p4ss';
  /** Every call, as `method [params]`. */
  readonly requests: string[] = [];
  override: Override | undefined;
  #server: Server | undefined;

  async start() {
    const expected = `Basic ${Buffer.from(`${this.user}:${this.password}`).toString('base64')}`;
    const { server, url } = await listen(async (req, res) => {
      const body = await readBody(req);
      // Core answers a wrong password with 401 and an empty body.
      if (req.headers.authorization !== expected) return send(res, { status: 401, body: '' });
      const forced = this.override?.({ method: req.method ?? 'POST', path: req.url ?? '/', body });
      if (forced) return send(res, forced);
      send(res, this.answer(body));
    });
    this.#server = server;
    return { url, networkId: this.btc.genesis, apiKey: `${this.user}:${this.password}` };
  }

  async pay(to: string, baseUnits: bigint) {
    return { txHash: this.btc.pay([{ to, sats: baseUnits }]).txid };
  }

  async mine(n: number) {
    this.btc.mine(n);
  }

  async reorg(depth: number) {
    this.btc.reorg(depth);
  }

  async stop() {
    await close(this.#server);
  }

  answer(body: string): Answer {
    let call: { id?: unknown; method?: unknown; params?: unknown };
    try {
      call = JSON.parse(body) as typeof call;
    } catch {
      return rpc(null, undefined, { code: -32700, message: 'Parse error' }, 500);
    }
    const params = Array.isArray(call.params) ? call.params : [];
    this.requests.push(`${String(call.method)} ${JSON.stringify(params)}`);
    const ok = (result: unknown) => rpc(call.id ?? null, result, null, 200);
    const fail = (code: number, message: string, status = 500) =>
      rpc(call.id ?? null, undefined, { code, message }, status);
    switch (call.method) {
      case 'getblockchaininfo':
        return ok({
          chain: 'regtest',
          blocks: this.btc.tip.height,
          headers: this.btc.tip.height,
          bestblockhash: this.btc.tip.hash,
          difficulty: 4.656542373906925e-10,
          time: this.btc.tip.time,
          mediantime: this.btc.tip.time,
          verificationprogress: 1,
          initialblockdownload: false,
          chainwork: '0000000000000000000000000000000000000000000000000000000000000002',
          size_on_disk: 293,
          pruned: false,
          warnings: [],
        });
      case 'getblockhash': {
        const h = params[0];
        if (typeof h !== 'number' || !Number.isInteger(h))
          return fail(-3, 'JSON value of type string is not of expected type number');
        const b = this.btc.blocks[h];
        return b ? ok(b.hash) : fail(-8, 'Block height out of range');
      }
      case 'getblock': {
        const b = typeof params[0] === 'string' ? this.btc.byHash.get(params[0]) : undefined;
        if (!b) return fail(-5, 'Block not found');
        const verbosity = params[1] ?? 1;
        if (verbosity !== 1 && verbosity !== 2) return fail(-8, 'Verbosity must be in range 0..3');
        return ok(this.blockJson(b, verbosity));
      }
      default:
        return fail(-32601, 'Method not found', 404);
    }
  }

  blockJson(b: Block, verbosity: 1 | 2) {
    const best = this.btc.blocks[b.height]?.hash === b.hash;
    const next = best ? this.btc.blocks[b.height + 1] : undefined;
    return {
      hash: b.hash,
      confirmations: best ? this.btc.tip.height - b.height + 1 : -1,
      height: b.height,
      version: 536870912,
      versionHex: '20000000',
      merkleroot: b.txs[0]?.txid,
      time: b.time,
      mediantime: b.time - 3000,
      nonce: 0,
      bits: '207fffff',
      difficulty: 4.656542373906925e-10,
      chainwork: (b.height * 2 + 2).toString(16).padStart(64, '0'),
      nTx: b.txs.length,
      ...(b.prev === null ? {} : { previousblockhash: b.prev }),
      ...(next ? { nextblockhash: next.hash } : {}),
      strippedsize: 215 * b.txs.length,
      size: 250 * b.txs.length,
      weight: 895 * b.txs.length,
      tx: verbosity === 2 ? b.txs.map(txJson) : b.txs.map((t) => t.txid),
    };
  }
}

/** A recorded transaction keeps its JSON text (amounts as recorded); others are written as Core does. */
function txJson(t: Tx): unknown {
  if (t.recorded?.core) return { '@@raw': t.recorded.core };
  return {
    txid: t.txid,
    hash: t.txid,
    version: 2,
    size: 222,
    vsize: 141,
    weight: 561,
    locktime: 0,
    vin: t.coinbase
      ? [{ coinbase: '02cd0000', txinwitness: ['0'.repeat(64)], sequence: 4294967294 }]
      : [
          {
            txid: t.txid.split('').reverse().join(''),
            vout: 0,
            scriptSig: { asm: '', hex: '' },
            txinwitness: ['30440220'.padEnd(142, '1'), `02${'2'.repeat(64)}`],
            sequence: 4294967293,
          },
        ],
    vout: t.outputs.map((o, n) => {
      const s = scriptOf(o.address);
      return {
        value: AMOUNT(o.sats),
        n,
        scriptPubKey: {
          asm: s.asm,
          desc: o.address === null ? `raw(${s.hex})` : `addr(${o.address})`,
          hex: s.hex,
          ...(o.address === null ? {} : { address: o.address }),
          type: s.coreType,
        },
      };
    }),
    hex: '02000000',
    ...(t.coinbase ? {} : { fee: AMOUNT(1410n) }),
  };
}

function rpc(id: unknown, result: unknown, error: { code: number; message: string } | null, status: number): Answer {
  const body = JSON.stringify(error ? { result: null, error, id } : { result, error: null, id });
  const withRaw = body.replace(/\{"@@raw":("(?:[^"\\]|\\.)*")\}/g, (_, s: string) => JSON.parse(s) as string);
  return { status, body: `${rawAmounts(withRaw)}\n`, type: 'application/json' };
}
