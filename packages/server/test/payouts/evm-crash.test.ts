import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { runSenderProcess, type SenderOutcome, txRows } from '../hot-wallet/common.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { eventsOf } from './world.js';

/**
 * A real approved payout, sent by the real services in a child process over the test's store
 * (SQLite, and a PostgreSQL schema of its own: the lease and the stored transaction then live in
 * another engine's transactions), killed with SIGKILL between signing and broadcast (the signed
 * transaction committed); restarted: the stored transaction goes out, one transaction on chain
 * for that nonce, the payout `sent` once, then `completed` once. Processes run the compiled dist/.
 */
const suite = anvilBinary === null ? describe.skip : describe;
const SCRIPT = fileURLToPath(new URL('./payout-sender-process.mjs', import.meta.url));

type Outcome = SenderOutcome<{ round: { leader: boolean; sent?: number } }>;

suite.each(DIALECTS)(
  'a payout whose sender is killed between signing and broadcast (anvil, real services in a process, %s)',
  (dialect: Dialect) => {
    let w: EvmPayoutWorld;

    beforeAll(async () => {
      w = await evmPayoutWorld(dialect);
      await w.chain.payEth(w.hot!, '5');
    }, 60_000);
    afterAll(async () => w?.close());

    const run = (extra: Record<string, string>, n: number): Promise<Outcome> =>
      runSenderProcess(SCRIPT, w.env, join(w.env.dataDir, `payout-sender-${n}.json`), extra);

    it('killed after the signed transaction is committed: restarted, it goes out once; the payout sent once, then completed once', async () => {
      const p = await w.approvedPayout(w.ethWallet, '0.75');
      const hot = w.hot!;
      const nonce = await w.chain.pub.getTransactionCount({ address: hot });

      const killed = await run({ HOTWALLET_KILL_AFTER_SIGN: '1' }, 1);
      expect(killed.signal).toBe('SIGKILL');
      expect(killed.out).toBeNull();
      const [signed] = await txRows(w.env.services, p.id);
      expect(signed).toMatchObject({ status: 'signed', nonce, marked_sent: 0 });
      expect((await w.env.services.payouts.getAny(p.id)).status).toBe('approved');
      expect(await w.chain.pub.getTransactionCount({ address: hot, blockTag: 'pending' })).toBe(nonce);

      // The new process: the dead one's lease has run out (its clock is 11 s on).
      const restarted = await run({ HOTWALLET_CLOCK_OFFSET_MS: '11000' }, 2);
      expect(restarted.code).toBe(0);
      expect(restarted.out!.round).toMatchObject({ leader: true, sent: 0 });
      const sent = await w.env.services.payouts.getAny(p.id);
      expect(sent).toMatchObject({ status: 'sent', txHash: signed!.tx_hash });
      expect(await w.chain.pub.getTransactionCount({ address: hot })).toBe(nonce + 1);

      // This instance takes over once that lease ran out too, and counts it to completion.
      w.env.clock.offsetMs += 22_000;
      await w.chain.mine(2);
      expect(await w.env.services.hotWallet.sender.round('ETH')).toMatchObject({ leader: true, sent: 0 });
      // The chain watcher counts the confirmations and completes the payout.
      expect(await w.env.services.chainWatch.watcher.round('ETH')).toMatchObject({ leader: true });
      expect((await w.env.services.payouts.getAny(p.id)).status).toBe('completed');
      expect(await txRows(w.env.services, p.id)).toHaveLength(1);
      expect(await w.chain.pub.getTransactionCount({ address: hot, blockTag: 'pending' })).toBe(nonce + 1);
      expect(await w.chain.pub.getBalance({ address: p.destination as Address })).toBe(parseEther('0.75'));
      const types = (await eventsOf(w.env.services, w.merchantId))
        .filter((e) => e.object.id === p.id)
        .map((e) => e.type);
      expect(types).toEqual(['payout.requested', 'payout.approved', 'payout.sent', 'payout.completed']);
    });
  },
);
