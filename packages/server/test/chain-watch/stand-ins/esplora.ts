import type { Server } from 'node:http';
import type { ChainHarness } from '../harness.js';
import { type Block, BtcChain, readBody, scriptOf, type Tx } from './btc-chain.js';
import { type Answer, close, listen, type Override, send } from './serve.js';

/**
 * A stand-in for an Esplora server (Blockstream's esplora / mempool.space / electrs) on
 * 127.0.0.1, answering the endpoints the adapter uses in the API's answer shapes (API.md in
 * Blockstream/esplora): text heights and hashes, block JSON, transactions 25 per page without
 * `status`, mempool transactions per address with `status: { confirmed: false }`.
 */
export class EsploraStandIn implements ChainHarness {
  readonly family = 'btc' as const;
  readonly kind = 'esplora';
  readonly chain = 'BTC';
  readonly asset = 'BTC';
  readonly btc = new BtcChain();
  /** Every request, as `GET /path`. */
  readonly requests: string[] = [];
  override: Override | undefined;
  /** The query string of the last request (a provider key may travel there). */
  lastQuery = '';
  /** When set, requests must carry `Authorization: Bearer <key>`. */
  apiKey: string | undefined;
  #server: Server | undefined;

  async start() {
    const { server, url } = await listen(async (req, res) => {
      const u = new URL(req.url ?? '/', 'http://stand-in');
      const path = u.pathname.replace(/^\/api/, '');
      this.lastQuery = u.search;
      const method = req.method ?? 'GET';
      this.requests.push(`${method} ${path}`);
      const body = await readBody(req);
      if (this.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.apiKey}`)
        return send(res, { status: 401, body: 'Unauthorized' });
      send(res, this.override?.({ method, path, body }) ?? this.answer(method, path));
    });
    this.#server = server;
    return { url: `${url}/api`, networkId: this.btc.genesis, ...(this.apiKey ? { apiKey: this.apiKey } : {}) };
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

  answer(method: string, path: string): Answer {
    const text = (body: string): Answer => ({ status: 200, body });
    const json = (v: unknown): Answer => ({ status: 200, body: JSON.stringify(v), type: 'application/json' });
    const notFound = (body: string): Answer => ({ status: 404, body });
    if (method !== 'GET') return { status: 405, body: 'Method Not Allowed' };
    let m: RegExpExecArray | null;
    if (path === '/blocks/tip/height') return text(String(this.btc.tip.height));
    if (path === '/blocks/tip/hash') return text(this.btc.tip.hash);
    if ((m = /^\/block-height\/(\d+)$/.exec(path))) {
      const b = this.btc.blocks[Number(m[1])];
      return b ? text(b.hash) : notFound('Block not found');
    }
    if ((m = /^\/block\/([0-9a-f]{64})(\/.*)?$/.exec(path))) {
      const b = this.btc.byHash.get(m[1] as string);
      if (!b) return notFound('Block not found');
      const rest = m[2] ?? '';
      if (rest === '') return json(blockJson(b));
      if (rest === '/status') {
        const best = this.btc.blocks[b.height]?.hash === b.hash;
        const next = best ? this.btc.blocks[b.height + 1] : undefined;
        return json({ in_best_chain: best, height: b.height, next_best: next?.hash ?? null });
      }
      if (rest === '/txids') return json(b.txs.map((t) => t.txid));
      const page = /^\/txs(?:\/(\d+))?$/.exec(rest);
      if (page) {
        const start = Number(page[1] ?? '0');
        if (start % 25 !== 0) return { status: 400, body: 'start index must be a multipication of 25' };
        if (start >= b.txs.length) return { status: 400, body: 'start index out of range' };
        return json(b.txs.slice(start, start + 25).map((t) => txJson(t, undefined)));
      }
      return notFound('Endpoint not found');
    }
    if ((m = /^\/address\/([^/]+)\/txs\/mempool$/.exec(path))) {
      const address = decodeURIComponent(m[1] as string);
      const txs = this.btc.mempool.filter((t) => t.outputs.some((o) => o.address === address));
      return json(txs.slice(0, 50).map((t) => txJson(t, { confirmed: false })));
    }
    return notFound('Endpoint not found');
  }
}

function blockJson(b: Block) {
  return {
    id: b.hash,
    height: b.height,
    version: 536870912,
    timestamp: b.time,
    tx_count: b.txs.length,
    size: 250 * b.txs.length,
    weight: 1000 * b.txs.length,
    merkle_root: b.txs[0]?.txid,
    previousblockhash: b.prev,
    mediantime: b.time - 3000,
    nonce: 0,
    bits: 545259519,
    difficulty: 4.656542373906925e-10,
  };
}

/** A transaction as Esplora writes it; in a block's page without `status`. */
function txJson(t: Tx, status: { confirmed: boolean } | undefined) {
  const recorded = t.recorded?.esplora;
  if (recorded) {
    const { status: _, ...rest } = recorded;
    return status ? { ...rest, status } : rest;
  }
  const vout = t.outputs.map((o) => {
    const s = scriptOf(o.address);
    return {
      scriptpubkey: s.hex,
      scriptpubkey_asm: s.asm,
      scriptpubkey_type: s.esploraType,
      ...(o.address === null ? {} : { scriptpubkey_address: o.address }),
      // Satoshis as a JSON integer, as Esplora writes them (exact below 2^53: 21e6 BTC is 2.1e15 sat).
      value: Number(o.sats),
    };
  });
  const vin = t.coinbase
    ? [
        {
          txid: '0'.repeat(64),
          vout: 4294967295,
          prevout: null,
          scriptsig: '03a0bb0d',
          scriptsig_asm: 'OP_PUSHBYTES_3 a0bb0d',
          witness: ['0'.repeat(64)],
          is_coinbase: true,
          sequence: 4294967295,
        },
      ]
    : [
        {
          txid: t.txid.split('').reverse().join(''),
          vout: 0,
          prevout: null,
          scriptsig: '',
          scriptsig_asm: '',
          witness: [],
          is_coinbase: false,
          sequence: 4294967293,
        },
      ];
  const tx = { txid: t.txid, version: 2, locktime: 0, vin, vout, size: 222, weight: 561, fee: t.coinbase ? 0 : 1410 };
  return status ? { ...tx, status } : tx;
}
