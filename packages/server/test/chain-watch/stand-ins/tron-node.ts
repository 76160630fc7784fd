import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tronBase58ToHex } from '../../../src/chain-families/tron/address.js';

/**
 * A java-tron FullNode's HTTP API on 127.0.0.1, enough of it for the TRON adapter: a small chain
 * that tests extend, pay into (TRX, TRC-20, a reverted TRC-20), solidify and reorganise. Answers
 * are clones of the shapes in fixtures/tron-answers.json with ids, addresses and amounts filled in.
 */

type Json = Record<string, unknown>;
const shapes = JSON.parse(readFileSync(new URL('../fixtures/tron-answers.json', import.meta.url), 'utf8')) as Record<
  string,
  Json
>;
const clone = (name: string): Json => structuredClone(shapes[name]) as Json;

export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** USDT on TRON mainnet, as the catalog stores it. */
export const USDT_TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
/** A payer: the transfers' owner_address. */
export const PAYER = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const sha = (s: string): string => createHash('sha256').update(s).digest('hex');
const word = (hex: string): string => hex.padStart(64, '0');
const hexOf = (address: string): string => {
  const hex = tronBase58ToHex(address);
  if (!hex) throw new Error(`stand-in: not a TRON address: ${address}`);
  return hex;
};

export interface StandInTx {
  txID: string;
  kind: 'trx' | 'trc20';
  success: boolean;
  to: string;
  amount: bigint;
  contract?: string;
  /** A reverted TRC-20 transfer whose block still says SUCCESS and whose log is kept (no node does
   * this): the receipt alone must keep the adapter from reporting it. */
  receiptOnly?: boolean;
}

export interface StandInBlock {
  number: number;
  id: string;
  parentHash: string;
  timestamp: number;
  txs: StandInTx[];
}

/** Amounts may pass 2^53: written into the JSON text as the digits, the way java-tron prints an int64. */
export function render(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `@big:${v}` : v)).replace(/"@big:(\d+)"/g, '$1');
}

export class TronNodeStandIn {
  readonly blocks: StandInBlock[] = [];
  pending: StandInTx[] = [];
  solidified = 0;
  /** Every request, in order (path and the API key header it carried). */
  readonly requests: { path: string; body: Json; apiKey: string | undefined }[] = [];
  /** When set, answers without this TRON-PRO-API-KEY get 401 as TronGrid does. */
  requiredApiKey: string | undefined;
  /** Raw answers replacing the chain's for a path (malformed-answer tests). */
  readonly answerOverrides = new Map<string, { status?: number; text: string }>();
  /** Called before each answer; a test may change the chain there (a reorganisation mid-scan). */
  onRequest: ((path: string, body: Json) => void) | undefined;
  private server: Server | undefined;
  private branch = 0;
  private txCount = 0;

  constructor(readonly seed = 'hostpay tron stand-in') {
    this.blocks.push(this.makeBlock(0, sha(`${seed} genesis parent`), []));
  }

  get genesisId(): string {
    return (this.blocks[0] as StandInBlock).id;
  }

  get head(): StandInBlock {
    return this.blocks[this.blocks.length - 1] as StandInBlock;
  }

  private makeBlock(number: number, parentHash: string, txs: StandInTx[]): StandInBlock {
    const digest = sha(`${this.seed}|${this.branch}|${parentHash}|${number}|${txs.map((t) => t.txID).join(',')}`);
    // A TRON block id: the height in 8 bytes, then 24 bytes of the header's hash.
    const id = number.toString(16).padStart(16, '0') + digest.slice(16);
    return { number, id, parentHash, timestamp: 1_700_000_000_000 + number * 3000, txs };
  }

  private tx(t: Omit<StandInTx, 'txID'>): string {
    const txID = sha(`${this.seed} tx ${this.txCount++}`);
    this.pending.push({ txID, ...t });
    return txID;
  }

  /** A TRX transfer (TransferContract), in the next block. */
  payTrx(to: string, sun: bigint, opts: { success?: boolean } = {}): string {
    return this.tx({ kind: 'trx', success: opts.success ?? true, to, amount: sun });
  }

  /** A TRC-20 `transfer(to, amount)` call (TriggerSmartContract), in the next block. */
  payTrc20(
    contract: string,
    to: string,
    units: bigint,
    opts: { success?: boolean; receiptOnly?: boolean } = {},
  ): string {
    return this.tx({ kind: 'trc20', success: opts.success ?? true, to, amount: units, contract, ...opts });
  }

  /** Produces `n` blocks; the first holds the pending transactions. */
  produce(n = 1): void {
    for (let i = 0; i < n; i++) {
      const txs = this.pending;
      this.pending = [];
      this.blocks.push(this.makeBlock(this.head.number + 1, this.head.id, txs));
    }
  }

  /**
   * One block on top whose parentHash is not the head's id (what a node answering from two
   * branches, or a hostile one, serves); it takes the pending transactions like a produced block.
   */
  produceDetached(parentHash = sha(`${this.seed} elsewhere ${this.blocks.length}`)): StandInBlock {
    const txs = this.pending;
    this.pending = [];
    const b = this.makeBlock(this.head.number + 1, parentHash, txs);
    this.blocks.push(b);
    return b;
  }

  solidify(upTo = this.head.number): void {
    this.solidified = Math.min(upTo, this.head.number);
  }

  /** Replaces the newest `depth` blocks by `depth + 1` empty ones: their payments are gone. */
  reorg(depth: number): void {
    if (depth < 1 || depth >= this.blocks.length) throw new Error(`stand-in: cannot replace ${depth} blocks`);
    this.blocks.splice(this.blocks.length - depth, depth);
    this.branch++;
    this.solidified = Math.min(this.solidified, this.head.number);
    for (let i = 0; i <= depth; i++) this.blocks.push(this.makeBlock(this.head.number + 1, this.head.id, []));
  }

  private txJson(t: StandInTx, block: StandInBlock): Json {
    const json = clone(t.kind === 'trx' ? 'trxTransfer' : 'trc20Transfer');
    json.txID = t.txID;
    (json.ret as Json[])[0] = { contractRet: t.success || t.receiptOnly ? 'SUCCESS' : 'REVERT' };
    const raw = json.raw_data as Json;
    raw.timestamp = block.timestamp - 2000;
    const value = (((raw.contract as Json[])[0] as Json).parameter as Json).value as Json;
    value.owner_address = hexOf(PAYER);
    if (t.kind === 'trx') {
      value.to_address = hexOf(t.to);
      // Protobuf's JSON leaves a zero amount out.
      if (t.amount === 0n) delete value.amount;
      else value.amount = t.amount;
    } else {
      value.contract_address = hexOf(t.contract as string);
      value.data = `a9059cbb${word(hexOf(t.to).slice(2))}${word(t.amount.toString(16))}`;
    }
    return json;
  }

  private infoJson(t: StandInTx, block: StandInBlock): Json {
    const json = clone(t.kind === 'trx' ? 'trxInfo' : t.success ? 'trc20Info' : 'trc20FailedInfo');
    json.id = t.txID;
    json.blockNumber = block.number;
    json.blockTimeStamp = block.timestamp;
    if (t.kind === 'trc20') {
      const contract = hexOf(t.contract as string);
      json.contract_address = contract;
      if (t.success || t.receiptOnly)
        json.log = [
          {
            address: contract.slice(2),
            topics: [TRANSFER_TOPIC, word(hexOf(PAYER).slice(2)), word(hexOf(t.to).slice(2))],
            data: word(t.amount.toString(16)),
          },
        ];
    }
    return json;
  }

  blockJson(block: StandInBlock, detail: boolean): Json {
    const header = clone('blockHeader');
    const raw = header.raw_data as Json;
    raw.parentHash = block.parentHash;
    raw.timestamp = block.timestamp;
    raw.txTrieRoot = sha(`root ${block.id}`);
    if (block.number === 0) {
      // Genesis, as java-tron prints it: no number (0 is protobuf's default), no timestamp.
      delete raw.number;
      delete raw.timestamp;
    } else raw.number = block.number;
    const json: Json = { blockID: block.id, block_header: header };
    if (detail && block.txs.length > 0) json.transactions = block.txs.map((t) => this.txJson(t, block));
    return json;
  }

  private byIdOrNum(v: unknown): StandInBlock | undefined {
    if (v === undefined) return this.head;
    const s = String(v);
    if (/^[0-9a-f]{64}$/.test(s)) return this.blocks.find((b) => b.id === s);
    return /^\d+$/.test(s) ? this.blocks[Number(s)] : undefined;
  }

  private answer(path: string, body: Json): { status: number; text: string } {
    const num = body.num;
    const badNum = (): { status: number; text: string } => ({
      status: 200,
      text: render({ Error: `class java.lang.NumberFormatException : For input string: "${String(num)}"` }),
    });
    switch (path) {
      case '/wallet/getnowblock':
        return { status: 200, text: render(this.blockJson(this.head, true)) };
      case '/walletsolidity/getnowblock':
        return { status: 200, text: render(this.blockJson(this.blocks[this.solidified] as StandInBlock, true)) };
      case '/wallet/getblock': {
        const b = this.byIdOrNum(body.id_or_num);
        return { status: 200, text: render(b ? this.blockJson(b, body.detail === true) : {}) };
      }
      case '/wallet/getblockbynum': {
        if (typeof num !== 'number') return badNum();
        const b = this.blocks[num];
        return { status: 200, text: render(b ? this.blockJson(b, true) : {}) };
      }
      case '/wallet/gettransactioninfobyblocknum': {
        if (typeof num !== 'number') return badNum();
        const b = this.blocks[num];
        return { status: 200, text: render(b ? b.txs.map((t) => this.infoJson(t, b)) : []) };
      }
      default:
        return { status: 404, text: '' };
    }
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; text: string }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let body: Json = {};
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      return { status: 200, text: render({ Error: 'class org.json.JSONException : invalid JSON' }) };
    }
    const apiKey = req.headers['tron-pro-api-key'] as string | undefined;
    this.requests.push({ path, body, apiKey });
    if (this.requiredApiKey !== undefined && apiKey !== this.requiredApiKey)
      return { status: 401, text: render({ Error: 'ApiKey not exists' }) };
    this.onRequest?.(path, body);
    const override = this.answerOverrides.get(path);
    return override ? { status: override.status ?? 200, text: override.text } : this.answer(path, body);
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req).then(
        ({ status, text }) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(text);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
