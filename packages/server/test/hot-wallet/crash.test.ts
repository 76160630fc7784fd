import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEther, type Address, type Hash } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary, startAnvil, type Anvil } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { chainDriver, watchEnv, type ChainDriver, type WatchEnv } from '../evm/env.js';
import { jobFor, runSenderProcess, type SenderOutcome, setUpChain, txRows } from './common.js';
import { RecorderPort } from './recorder.js';

/**
 * A sender killed with SIGKILL between signing and broadcasting (its signed transaction
 * committed, nothing sent), then a new process over the same store: the stored transaction is
 * broadcast, not a second one signed — one transaction on chain with that nonce, the payout
 * marked sent once. Processes run the compiled dist/ (sender-process.mjs), on both stores.
 */
const suite = anvilBinary === null ? describe.skip : describe;
const SCRIPT = fileURLToPath(new URL('./sender-process.mjs', import.meta.url));

type Outcome = SenderOutcome<{ round: { leader: boolean; sent?: number }; calls: unknown[][] }>;

suite.each(DIALECTS)(
  'hot wallet sender killed between signing and broadcast (anvil, separate processes, %s)',
  (dialect: Dialect) => {
    let anvil: Anvil;
    let chain: ChainDriver;
    let env: WatchEnv;
    let address: Address;

    beforeAll(async () => {
      anvil = await startAnvil();
      chain = chainDriver(anvil);
      const token = await chain.deployToken(6);
      env = await watchEnv(dialect);
      address = await setUpChain(env, anvil, chain, token, generatePrivateKey());
      await chain.payEth(address, '5');
    }, 60_000);

    afterAll(async () => {
      await env?.close();
      await anvil?.stop();
    });

    const run = (job: unknown, extra: Record<string, string>, n: number): Promise<Outcome> =>
      runSenderProcess(SCRIPT, env, join(env.dataDir, `sender-${n}.json`), {
        HOTWALLET_JOB: JSON.stringify(job),
        ...extra,
      });

    it('killed after the signed transaction is committed: restarted, the stored one goes out once, never a second', async () => {
      const job = await jobFor(env.services, 'ETH', '0.75', null);
      const nonce = await chain.pub.getTransactionCount({ address });

      const killed = await run(job, { HOTWALLET_KILL_AFTER_SIGN: '1' }, 1);
      expect(killed.signal).toBe('SIGKILL');
      expect(killed.out).toBeNull();
      const [signed] = await txRows(env.services, job.id);
      expect(signed).toMatchObject({ status: 'signed', nonce, marked_sent: 0 });
      // Nothing reached the node.
      expect(await chain.pub.getTransactionCount({ address, blockTag: 'pending' })).toBe(nonce);

      // The new process: the dead one's lease has run out (its clock is 11 s on).
      const restarted = await run(job, { HOTWALLET_CLOCK_OFFSET_MS: '11000' }, 2);
      expect(restarted.code).toBe(0);
      expect(restarted.out!.round).toMatchObject({ leader: true, sent: 0 });
      expect(restarted.out!.calls).toEqual([['sent', job.id, signed!.tx_hash]]);
      const rows = await txRows(env.services, job.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: signed!.id, tx_hash: signed!.tx_hash, status: 'broadcast', marked_sent: 1 });
      expect(await chain.pub.getTransactionCount({ address })).toBe(nonce + 1);
      const receipt = await chain.pub.getTransactionReceipt({ hash: signed!.tx_hash as Hash });
      expect(receipt.status).toBe('success');
      expect(await chain.pub.getBalance({ address: job.destination as Address })).toBe(parseEther('0.75'));

      // And again, in this process, with the payout still handed out as approved: nothing new signed or sent.
      const port = new RecorderPort();
      port.add(job);
      env.clock.offsetMs += 22_000;
      const sender = env.services.hotWallet.spawnSender({ port });
      try {
        expect(await sender.round('ETH')).toMatchObject({ leader: true, sent: 0 });
      } finally {
        await sender.stop();
      }
      // The payout may be told the mined hash again (an idempotent repeat), never another one.
      expect(port.calls.filter((c) => c[0] === 'sent' && c[2] !== signed!.tx_hash)).toEqual([]);
      expect(await txRows(env.services, job.id)).toHaveLength(1);
      expect(await chain.pub.getTransactionCount({ address, blockTag: 'pending' })).toBe(nonce + 1);
    });
  },
);
