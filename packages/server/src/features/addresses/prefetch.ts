import { Worker } from 'node:worker_threads';
import type { FamilyName } from '../../chain-families/index.js';
import { encodingForWorker } from '../../chain-families/worker-encoding.js';
import { chooseCurve, curveModules } from './tweak-curve.js';

/**
 * Receive-branch child points computed ahead of need on a worker thread. The child tweak
 * (HMAC-SHA512, then P + t·G in libsecp256k1) was a fifth of the CPU of creating a checkout on
 * the thread that serves requests; the next indices of a key are known in advance (its counter only
 * grows), so they are computed on another core, with their addresses (keccak-256 and base58check
 * for TRON were another 4.6 %: each family's `encodeAddress` is the one encoder both threads run).
 *
 * The worker holds no secret: an account-level public key and chain code are public to whoever
 * holds the xpub, which the server already keeps. Anything the worker cannot answer (it failed,
 * it has not answered yet, BIP-32's retry cases) is derived on the calling thread as before, so
 * prefetching changes when a point is computed, never which point.
 */

/** The worker: CommonJS source so it needs no file of its own next to the bundled chunks. */
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHmac, createSecretKey } = require('node:crypto');
// The same choice as the serving thread's (tweak-curve.ts): native libsecp256k1 where it loads and agrees.
const { curve } = (${chooseCurve.toString()})(require, workerData.curves);
const ORDER = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
// Each family's encodeAddress (chain-families/), built from its source with this thread's imports
// of its libraries; until they load, or if they cannot, addresses come back null and the serving
// thread encodes.
let encode = null;
const e = workerData.encoding;
const m = e.modules;
const loading = Promise.all([import(m.sha3), import(m.sha2), import(m.legacy), import(m.base)])
  .then(([sha3, sha2, legacy, base]) => {
    const raw = { keccak_256: sha3.keccak_256, sha256: sha2.sha256, ripemd160: legacy.ripemd160, bech32: base.bech32, base58check: base.createBase58check(sha2.sha256) };
    const lib = Object.assign({}, raw, (0, eval)('(' + e.helpers + ')')(raw));
    const families = {};
    for (const name of Object.keys(e.families)) families[name] = (0, eval)('(' + e.families[name] + ')');
    encode = (family, prefix, point) => families[family](lib, prefix, point);
  })
  .catch(() => {});
parentPort.on('message', async (m) => {
  await loading;
  const points = [];
  const addresses = [];
  const data = Buffer.alloc(37);
  data.set(m.publicKey, 0);
  // A KeyObject once per message: from raw bytes createHmac would prepare one for every index.
  const key = createSecretKey(m.chainCode);
  for (let i = 0; i < m.count; i++) {
    data.writeUInt32BE(m.from + i, 33);
    const tweak = createHmac('sha512', key).update(data).digest().subarray(0, 32);
    const t = BigInt('0x' + tweak.toString('hex'));
    let point = null;
    if (t !== 0n && t < ORDER) { try { point = curve.pointAddScalar(m.point, tweak, false); } catch { point = null; } }
    let address = null;
    if (point !== null && encode !== null) {
      try { address = encode(m.family, m.prefix, point); } catch { address = null; }
    }
    points.push(point);
    addresses.push(address);
  }
  parentPort.postMessage({ id: m.id, points, addresses });
});`;

export interface Ahead {
  point: Uint8Array;
  address: string | undefined;
}

export interface Branch {
  publicKey: Uint8Array;
  chainCode: Uint8Array;
  point: Uint8Array;
  /** How its addresses are spelled: the family, and its prefix on the key's network (`addressPrefix`). */
  family: FamilyName;
  prefix: string;
  /** Children computed ahead, by index: the point, and the address unless the worker could not encode it; taken (deleted) when used. */
  ahead: Map<number, Ahead>;
  /** Indices below this were requested already. */
  requestedTo: number;
  pending: Promise<void> | undefined;
}

/**
 * How many indices one request computes, and how close to the end of them a refill starts. A
 * group commit takes dozens of addresses in one turn of the loop; with 128/64 about one create in
 * eight outran the worker under the create benchmark and derived its point in place.
 */
const BATCH = 512;
const LOW = 384;

let worker: Worker | undefined;
let disabled = false;
let nextId = 0;
interface Computed {
  points: (Uint8Array | null)[];
  addresses: (string | null)[];
}
const waiting = new Map<number, { resolve: (computed: Computed) => void; reject: (err: Error) => void }>();

function startWorker(): Worker {
  const w = new Worker(SOURCE, { eval: true, workerData: { curves: curveModules(), encoding: encodingForWorker() } });
  // The worker never keeps a process alive (a CLI command, a test) that is otherwise done.
  w.unref();
  w.on('message', (m: { id: number } & Computed) => {
    const pending = waiting.get(m.id);
    waiting.delete(m.id);
    pending?.resolve(m);
  });
  const stop = (err: Error) => {
    disabled = true;
    worker = undefined;
    for (const p of waiting.values()) p.reject(err);
    waiting.clear();
  };
  w.on('error', stop);
  w.on('exit', (code) => stop(new Error(`address prefetch worker exited with code ${code}`)));
  return w;
}

function compute(branch: Branch, from: number, count: number): Promise<Computed> {
  worker ??= startWorker();
  const id = nextId++;
  const w = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({
      id,
      publicKey: branch.publicKey,
      chainCode: branch.chainCode,
      point: branch.point,
      family: branch.family,
      prefix: branch.prefix,
      from,
      count,
    });
  });
}

/** Counters for tests and the benchmark: points served from the worker (`encoded`: with their address), and derived in place. */
export const prefetchStats = { hits: 0, encoded: 0, misses: 0 };

/** Child `index` if it was computed ahead (and forgets it). */
export function takeAhead(branch: Branch, index: number): Ahead | undefined {
  const child = branch.ahead.get(index);
  if (child === undefined) prefetchStats.misses++;
  else {
    branch.ahead.delete(index);
    prefetchStats.hits++;
    if (child.address !== undefined) prefetchStats.encoded++;
  }
  return child;
}

/**
 * Index `used` was just handed out: when fewer than LOW later indices are computed or requested,
 * request the next BATCH. Indices another instance took are skipped over, not waited for.
 */
export function refill(branch: Branch, used: number): void {
  if (disabled || branch.pending !== undefined) return;
  const from = Math.max(branch.requestedTo, used + 1);
  if (from - used > LOW || from + BATCH > 0x80000000) return;
  branch.requestedTo = from + BATCH;
  branch.pending = compute(branch, from, BATCH)
    .then(({ points, addresses }) => {
      // Entries at or below what was used are stale (this or another instance used them).
      if (branch.ahead.size > 2 * BATCH) for (const k of branch.ahead.keys()) if (k <= used) branch.ahead.delete(k);
      points.forEach((p, i) => {
        if (p !== null) branch.ahead.set(from + i, { point: p, address: addresses[i] ?? undefined });
      });
    })
    .catch(() => {
      // The calling thread derives everything itself from now on.
    })
    .finally(() => {
      branch.pending = undefined;
    });
}

/** Turns prefetching off (or back on): the tests compare both paths. */
export function setPrefetch(enabled: boolean): void {
  disabled = !enabled;
}

/** Resolves when the branch's outstanding request (if any) has landed: for tests. */
export const settled = (branch: Branch): Promise<void> => branch.pending ?? Promise.resolve();
