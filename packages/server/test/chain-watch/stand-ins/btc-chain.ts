import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The chain both Bitcoin stand-ins (Esplora, Bitcoin Core) serve: blocks linked by parent hash,
 * a mempool, payments, and reorganisations onto a longer branch. Each stand-in renders it in its
 * provider's answer shapes; recorded transactions (fixtures/) are served as recorded.
 */

/** Bitcoin Core's regtest genesis block hash: what a regtest node answers for height 0. */
export const REGTEST_GENESIS = '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206';
/** A miner address no deposit is ever derived to. */
const MINER = 'bcrt1qv70cepxj2d2dhrmrcdprlu4sakuc98zltd0wuf';

export interface Output {
  /** null: a script without an address (OP_RETURN). */
  address: string | null;
  sats: bigint;
}

export interface Tx {
  txid: string;
  outputs: Output[];
  coinbase: boolean;
  /** A recorded answer served as it is, per provider (fixtures/). */
  recorded?: { esplora?: Record<string, unknown>; core?: string };
}

export interface Block {
  hash: string;
  height: number;
  prev: string | null;
  time: number;
  txs: Tx[];
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

/** The recorded mainnet transaction (P2SH + P2WPKH outputs), as Esplora answers it. */
export function recordedEsploraTx(): Tx {
  const json = JSON.parse(fixture('esplora-tx-763239.json')) as {
    txid: string;
    vout: { scriptpubkey_address: string; value: number }[];
  };
  return {
    txid: json.txid,
    coinbase: false,
    outputs: json.vout.map((o) => ({ address: o.scriptpubkey_address, sats: BigInt(o.value) })),
    recorded: { esplora: json as unknown as Record<string, unknown> },
  };
}

/** The recorded regtest coinbase, as Bitcoin Core writes it (its JSON text kept: amounts are numbers). */
export function recordedCoreTx(): Tx {
  const text = fixture('core-tx-regtest-coinbase.json');
  const json = JSON.parse(text) as { txid: string };
  return {
    txid: json.txid,
    coinbase: false,
    outputs: [
      { address: 'bcrt1qv70cepxj2d2dhrmrcdprlu4sakuc98zltd0wuf', sats: 2_500_000_000n },
      { address: null, sats: 0n },
    ],
    recorded: { core: text },
  };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

export class BtcChain {
  readonly genesis: string;
  /** The current best chain, by height. */
  blocks: Block[] = [];
  /** Every block ever served, replaced ones too (both providers still answer for them by hash). */
  readonly byHash = new Map<string, Block>();
  mempool: Tx[] = [];
  #n = 0;

  constructor(genesis = REGTEST_GENESIS) {
    this.genesis = genesis;
    this.#add({ hash: genesis, height: 0, prev: null, time: 1296688602, txs: [this.#coinbase(0)] });
  }

  get tip(): Block {
    return this.blocks[this.blocks.length - 1] as Block;
  }

  #add(b: Block) {
    this.blocks.push(b);
    this.byHash.set(b.hash, b);
  }

  #coinbase(height: number): Tx {
    return {
      txid: sha(`coinbase:${height}:${++this.#n}`),
      coinbase: true,
      outputs: [
        { address: MINER, sats: 5_000_000_000n },
        { address: null, sats: 0n },
      ],
    };
  }

  /** A transaction paying each output, waiting in the mempool for the next block. */
  pay(outputs: { to: string; sats: bigint }[]): Tx {
    const tx: Tx = {
      txid: sha(`tx:${++this.#n}:${outputs.map((o) => `${o.to}=${o.sats}`).join(',')}`),
      coinbase: false,
      // Change back to the payer after the payments, as wallets do: outputs not ours sit beside ours.
      outputs: [...outputs.map((o) => ({ address: o.to, sats: o.sats })), { address: MINER, sats: 12_345n }],
    };
    this.mempool.push(tx);
    return tx;
  }

  /** A recorded transaction, into the mempool. */
  include(tx: Tx): void {
    this.mempool.push(tx);
  }

  /** `n` blocks; the first takes the mempool. `filler` adds that many unrelated transactions to each (paging). */
  mine(n: number, filler = 0): Block[] {
    const made: Block[] = [];
    for (let i = 0; i < n; i++) {
      const parent = this.tip;
      const height = parent.height + 1;
      const txs = [this.#coinbase(height)];
      for (let f = 0; f < filler; f++) txs.push(this.pay([{ to: MINER, sats: BigInt(1000 + f) }]));
      txs.push(...this.mempool.filter((t) => !txs.includes(t)));
      this.mempool = [];
      const b: Block = {
        hash: sha(`block:${parent.hash}:${++this.#n}`),
        height,
        prev: parent.hash,
        time: parent.time + 600,
        txs,
      };
      this.#add(b);
      made.push(b);
    }
    return made;
  }

  /**
   * One block on top whose parent is not the tip (`prev` another hash): what a node answering from
   * two branches at once, or a hostile one, serves. It takes the mempool like a mined block.
   */
  mineDetached(prev = sha(`elsewhere:${++this.#n}`)): Block {
    const parent = this.tip;
    const txs = [this.#coinbase(parent.height + 1), ...this.mempool];
    this.mempool = [];
    const b: Block = {
      hash: sha(`block:${prev}:${++this.#n}`),
      height: parent.height + 1,
      prev,
      time: parent.time + 600,
      txs,
    };
    this.#add(b);
    return b;
  }

  /** Replaces the newest `depth` blocks by `depth + 1` empty ones (their payments are gone, not back in the mempool). */
  reorg(depth: number): void {
    if (depth < 1 || depth >= this.blocks.length) throw new Error(`cannot reorganise ${depth} blocks`);
    this.blocks = this.blocks.slice(0, this.blocks.length - depth);
    const pending = this.mempool;
    this.mempool = [];
    this.mine(depth + 1);
    this.mempool = pending;
  }
}

/** What a script looks like for an address, in both providers' words. */
export interface Script {
  hex: string;
  asm: string;
  esploraType: string;
  coreType: string;
}

const b58 = createBase58check(sha256);
const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

export function scriptOf(address: string | null): Script {
  if (address === null) {
    const data = 'aa21a9ed'.padEnd(72, '0');
    return { hex: `6a24${data}`, asm: `OP_RETURN ${data}`, esploraType: 'op_return', coreType: 'nulldata' };
  }
  try {
    if (/^(bc|tb|bcrt)1/i.test(address)) {
      const lower = address.toLowerCase();
      const decoded =
        lower[lower.indexOf('1') + 1] === 'q'
          ? bech32.decode(lower as `${string}1${string}`)
          : bech32m.decode(lower as `${string}1${string}`);
      const [version, ...words] = decoded.words;
      const program = hexOf(bech32.fromWords(words));
      if (version === 0 && program.length === 40)
        return {
          hex: `0014${program}`,
          asm: `OP_0 OP_PUSHBYTES_20 ${program}`,
          esploraType: 'v0_p2wpkh',
          coreType: 'witness_v0_keyhash',
        };
      if (version === 0)
        return {
          hex: `0020${program}`,
          asm: `OP_0 OP_PUSHBYTES_32 ${program}`,
          esploraType: 'v0_p2wsh',
          coreType: 'witness_v0_scripthash',
        };
      return {
        hex: `5120${program}`,
        asm: `OP_PUSHNUM_1 OP_PUSHBYTES_32 ${program}`,
        esploraType: 'v1_p2tr',
        coreType: 'witness_v1_taproot',
      };
    }
    const raw = b58.decode(address);
    const hash = hexOf(raw.subarray(1));
    if (raw[0] === 0x05 || raw[0] === 0xc4)
      return {
        hex: `a914${hash}87`,
        asm: `OP_HASH160 OP_PUSHBYTES_20 ${hash} OP_EQUAL`,
        esploraType: 'p2sh',
        coreType: 'scripthash',
      };
    return {
      hex: `76a914${hash}88ac`,
      asm: `OP_DUP OP_HASH160 OP_PUSHBYTES_20 ${hash} OP_EQUALVERIFY OP_CHECKSIG`,
      esploraType: 'p2pkh',
      coreType: 'pubkeyhash',
    };
  } catch {
    // An address the test made up: the script is not what matters in that case.
    return { hex: '', asm: '', esploraType: 'unknown', coreType: 'nonstandard' };
  }
}

/** A node:http request's body, bounded. */
export async function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 1024 * 1024) throw new Error('body too large');
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}
