import { TronNodeError } from './client.js';

/**
 * java-tron's answers read into the few fields the watcher needs, each checked: a node (or a
 * proxy in front of it) that answers something else gets a clear error naming the field.
 * Protobuf's JSON leaves out fields at their default value: block 0 has no `number`, a block
 * without transactions no `transactions`, a TRX transfer of 0 no `amount`.
 */

const HASH = /^[0-9a-f]{64}$/;

export interface TronBlockHeader {
  number: number;
  id: string;
  parentHash: string;
  /** Seconds since 1970; absent on the genesis block. */
  time?: number | undefined;
}

export interface TronTransfer {
  txId: string;
  success: boolean;
  /** TransferContract only: the `41…` receiver and the amount in sun. */
  trx?: { to: string; amount: bigint };
}

export interface TronBlock extends TronBlockHeader {
  txs: TronTransfer[];
}

export interface TronLog {
  /** The emitting contract, `41…` hex. */
  contract: string;
  topics: string[];
  data: string;
}

export interface TronTxInfo {
  txId: string;
  blockNumber: number;
  /** receipt.result is SUCCESS and the transaction did not fail. */
  success: boolean;
  logs: TronLog[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function bad(what: string, field: string): never {
  throw new TronNodeError(`${what}: malformed answer (${field})`);
}

function hash(v: unknown, what: string, field: string): string {
  if (typeof v !== 'string' || !HASH.test(v.toLowerCase())) bad(what, `${field} is not 64 hex digits`);
  return v.toLowerCase();
}

/** An empty object: the node has no such block. */
export function isNoBlock(answer: unknown): boolean {
  return isObject(answer) && Object.keys(answer).length === 0;
}

export function readHeader(answer: unknown, what: string): TronBlockHeader {
  if (!isObject(answer)) bad(what, 'not an object');
  const id = hash(answer.blockID, what, 'blockID');
  const header = answer.block_header;
  if (!isObject(header) || !isObject(header.raw_data)) bad(what, 'block_header.raw_data missing');
  const raw = header.raw_data;
  const number = raw.number ?? 0;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 0)
    bad(what, 'block_header.raw_data.number is not a block number');
  const parentHash = hash(raw.parentHash, what, 'block_header.raw_data.parentHash');
  // A TRON block id starts with its height (8 bytes): one that does not is not this block's.
  if (BigInt(`0x${id.slice(0, 16)}`) !== BigInt(number))
    bad(what, `blockID ${id} does not start with height ${number}`);
  const ts = raw.timestamp;
  if (ts !== undefined && (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0))
    bad(what, 'block_header.raw_data.timestamp is not a time in ms');
  return { number, id, parentHash, time: ts === undefined ? undefined : Math.floor(ts / 1000) };
}

function readTx(tx: unknown, what: string, i: number): TronTransfer {
  const at = `transactions[${i}]`;
  if (!isObject(tx)) bad(what, `${at} not an object`);
  const txId = hash(tx.txID, what, `${at}.txID`);
  const ret = tx.ret;
  const first = Array.isArray(ret) ? ret[0] : undefined;
  // A transaction without a result is not a successful one.
  const success = isObject(first) && first.contractRet === 'SUCCESS';
  const raw = tx.raw_data;
  if (!isObject(raw) || !Array.isArray(raw.contract)) bad(what, `${at}.raw_data.contract missing`);
  const contract = raw.contract[0];
  if (!isObject(contract) || contract.type !== 'TransferContract') return { txId, success };
  const param = contract.parameter;
  const value = isObject(param) ? param.value : undefined;
  if (!isObject(value)) bad(what, `${at} TransferContract without parameter.value`);
  const to = value.to_address;
  if (typeof to !== 'string' || !/^41[0-9a-fA-F]{40}$/.test(to)) bad(what, `${at}.to_address is not a 41… hex address`);
  const amount = value.amount ?? 0n;
  if (typeof amount !== 'bigint' || amount < 0n) bad(what, `${at}.amount is not a whole number of sun`);
  return { txId, success, trx: { to: to.toLowerCase(), amount } };
}

/** /wallet/getblockbynum: the header and the transactions. */
export function readBlock(answer: unknown, what: string): TronBlock {
  const header = readHeader(answer, what);
  const txs = (answer as Record<string, unknown>).transactions ?? [];
  if (!Array.isArray(txs)) bad(what, 'transactions is not a list');
  return { ...header, txs: txs.map((tx, i) => readTx(tx, what, i)) };
}

function readLog(log: unknown, what: string, at: string): TronLog {
  if (!isObject(log)) bad(what, `${at} not an object`);
  const { address, topics, data } = log;
  if (typeof address !== 'string' || !Array.isArray(topics)) bad(what, `${at} without address or topics`);
  // The node spells a log's contract without the 41 prefix (EVM style); some proxies add it.
  const hex = address.toLowerCase();
  const contract = /^[0-9a-f]{40}$/.test(hex)
    ? `41${hex}`
    : /^41[0-9a-f]{40}$/.test(hex)
      ? hex
      : bad(what, `${at}.address`);
  if (!topics.every((t) => typeof t === 'string')) bad(what, `${at}.topics`);
  return {
    contract,
    topics: (topics as string[]).map((t) => t.toLowerCase()),
    data: typeof data === 'string' ? data.toLowerCase() : '',
  };
}

/** /wallet/gettransactioninfobyblocknum: one entry per transaction of the block. */
export function readTxInfos(answer: unknown, what: string): TronTxInfo[] {
  if (!Array.isArray(answer)) {
    // Some versions answer an empty block with {} rather than [].
    if (isNoBlock(answer)) return [];
    bad(what, 'not a list');
  }
  return answer.map((info, i) => {
    const at = `[${i}]`;
    if (!isObject(info)) bad(what, `${at} not an object`);
    const txId = hash(info.id, what, `${at}.id`);
    const blockNumber = info.blockNumber ?? 0;
    if (typeof blockNumber !== 'number' || !Number.isSafeInteger(blockNumber)) bad(what, `${at}.blockNumber`);
    const receipt = info.receipt;
    const success = isObject(receipt) && receipt.result === 'SUCCESS' && info.result !== 'FAILED';
    const logs = info.log ?? [];
    if (!Array.isArray(logs)) bad(what, `${at}.log is not a list`);
    return {
      txId,
      blockNumber,
      success,
      logs: logs.map((l, j) => readLog(l, what, `${at}.log[${j}]`)),
    };
  });
}
