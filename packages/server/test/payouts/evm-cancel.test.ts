import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEther, type Address, type Hash, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { anvilBinary } from '../evm/anvil.js';
import { DIALECTS, type Dialect } from '../helpers.js';
import { errorOf, resultOf } from '../http-helpers/admin-fixture.js';
import { metricValue, runSenderProcess, txRows } from '../hot-wallet/common.js';
import { evmPayoutWorld, type EvmPayoutWorld } from './evm-world.js';
import { balances } from './world.js';

/**
 * The operators' way out of a hot-wallet payout stuck in flight (issue 40, item 3), on a real node
 * with mining paused: cancel by replacement (a zero-value transfer to the wallet itself at the
 * payout's nonce) — mined: the payout fails once, unfrozen, nothing paid but gas; the payout's own
 * transaction mined instead: it completes and the cancel ends lost; refused where nothing can be
 * replaced. And a transaction the node forgot and refuses again: shown as such, rebroadcast by the
 * operator. Both stores; through the admin API, audited.
 */
const suite = anvilBinary === null ? describe.skip : describe;
const SCRIPT = fileURLToPath(new URL('./payout-sender-process.mjs', import.meta.url));

interface ChainView {
  state: string;
  nonce: number;
  txHash: string;
  payoutStatus: string;
  forgotten: { since: string; nodeAnswer: string } | null;
  cancel: { status: string; requestedBy: string; txHash: string | null; resolvedAt: string | null } | null;
  actions: string[];
  advice: string;
  transactions: { txHash: string; kind: string; status: string; nonce: number; maxFeePerGas: string }[];
}

suite.each(DIALECTS)('a hot-wallet payout stuck in flight: the way out, %s', (dialect: Dialect) => {
  let w: EvmPayoutWorld;

  beforeAll(async () => {
    w = await evmPayoutWorld(dialect);
    await w.chain.payEth(w.hot!, '10');
  }, 60_000);
  afterAll(async () => w?.close());
  // Every test pauses mining; the next one starts with the node mining each transaction again.
  afterEach(async () => {
    await w.chain.test.setAutomine(true);
  });

  const round = () => w.round();
  const payout = (id: string) => w.env.services.payouts.getAny(id);
  const view = async (id: string) => resultOf<ChainView>(await w.env.admin('GET', `/payouts/${id}/hot-wallet`));
  const cancel = (id: string) => w.env.admin('POST', `/payouts/${id}/cancel-by-replacement`, { body: {} });
  const audit = async (id: string) =>
    resultOf<{ items: { action: string; operator: string; after: Record<string, unknown> }[] }>(
      await w.env.admin('GET', `/audit?objectId=${id}`),
    ).items.map((e) => ({ action: e.action, operator: e.operator, after: e.after }));
  const nonceOnChain = () => w.chain.pub.getTransactionCount({ address: w.hot!, blockTag: 'latest' });
  const balanceOf = (a: string) => w.chain.pub.getBalance({ address: a as Address });

  /** An ETH payout broadcast by the hot wallet and waiting in the node's pool (mining paused). */
  async function sentNotMined(amount: string) {
    const p = await w.approvedPayout(w.ethWallet, amount);
    await w.chain.test.setAutomine(false);
    expect(await round()).toMatchObject({ sent: 1 });
    const sent = await payout(p.id);
    expect(sent.status).toBe('sent');
    expect(await w.chain.pub.getTransactionReceipt({ hash: sent.txHash as Hash }).catch(() => null)).toBeNull();
    return { ...p, txHash: sent.txHash! };
  }

  it('cancel by replacement, mined: the payout fails once, unfrozen; the nonce is used; only gas left the wallet', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await sentNotMined('0.2');
    const nonce = (await view(p.id)).nonce;
    const hotBefore = await balanceOf(w.hot!);

    const asked = resultOf<ChainView>(await cancel(p.id));
    expect(asked).toMatchObject({ state: 'in_flight', cancel: { status: 'requested', requestedBy: 'alice' } });
    expect(asked.actions).toEqual(['rebroadcast']);
    // Asked twice (a retry): the same request, audited once.
    expect(resultOf<ChainView>(await cancel(p.id)).cancel).toEqual(asked.cancel);

    await round();
    const signed = await view(p.id);
    expect(signed.cancel).toMatchObject({ status: 'sent' });
    expect(signed.transactions.map((t) => [t.kind, t.status, t.nonce])).toEqual([
      ['payment', 'replaced', nonce],
      ['cancel', 'broadcast', nonce],
    ]);
    // Above the fee bump rule's minimum (+12.5 %) over the transaction it replaces.
    const [orig, repl] = signed.transactions;
    expect(BigInt(repl!.maxFeePerGas)).toBeGreaterThan((BigInt(orig!.maxFeePerGas) * 1125n) / 1000n);
    // Not failed before the replacement is mined to the depth: the payout keeps its hash and freeze.
    expect(await payout(p.id)).toMatchObject({ status: 'sent', txHash: p.txHash });

    await w.chain.mine(1);
    await round();
    expect((await payout(p.id)).status).toBe('sent');
    const counting = await view(p.id);
    expect(counting).toMatchObject({ state: 'mined', actions: [] });
    expect(counting.advice).toContain(
      "This is the cancel by replacement: the payout fails once it is mined to the chain's depth.",
    );
    await w.chain.mine(2);
    await round();
    await round();
    const failed = await payout(p.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/^canceled by replacement: transaction 0x[0-9a-f]{64} .* nothing was paid$/);
    expect(failed.txHash).toBe(p.txHash);
    expect(await balances(w.env.services, w.ethWallet)).toEqual(before);
    const events = await w.eventsOfPayout(p.id);
    expect(events.filter((t) => t === 'payout.failed')).toHaveLength(1);
    expect(events.filter((t) => t === 'payout.completed')).toHaveLength(0);
    // freeze, unfreeze: nothing else.
    expect(events.filter((t) => t === 'wallet.balance_changed')).toHaveLength(2);

    const done = await view(p.id);
    expect(done).toMatchObject({ state: 'confirmed', cancel: { status: 'canceled' }, actions: [] });
    expect(done.txHash).toBe(done.cancel!.txHash);
    const receipt = await w.chain.pub.getTransactionReceipt({ hash: done.cancel!.txHash as Hash });
    expect(await nonceOnChain()).toBe(nonce + 1);
    expect(await balanceOf(p.destination)).toBe(0n);
    expect(hotBefore - (await balanceOf(w.hot!))).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect((await audit(p.id)).filter((e) => e.action.startsWith('payout.cancel_by_replacement'))).toEqual([
      { action: 'payout.cancel_by_replacement', operator: 'alice', after: { cancel: 'requested', nonce } },
      {
        action: 'payout.cancel_by_replacement.canceled',
        operator: 'hot-wallet',
        after: { cancel: 'canceled', minedTxHash: done.cancel!.txHash, nonce },
      },
    ]);

    // More rounds change nothing; the next payout takes the next nonce and is paid.
    await round();
    expect((await w.eventsOfPayout(p.id)).length).toBe(events.length);
    await w.chain.test.setAutomine(true);
    const next = await w.approvedPayout(w.ethWallet, '0.01');
    await round();
    await w.chain.mine(2);
    await round();
    expect((await payout(next.id)).status).toBe('completed');
    expect((await view(next.id)).nonce).toBe(nonce + 1);
  });

  it("the payout's own transaction mined instead of the cancel: completed once, the cancel lost", async () => {
    const p = await sentNotMined('0.03');
    resultOf(await cancel(p.id));
    await round();
    const signed = await view(p.id);
    expect(signed.cancel?.status).toBe('sent');
    // The node loses the replacement and takes the payment back (another node's pool won the race).
    const rows = await txRows(w.env.services, p.id);
    await w.chain.test.dropTransaction({ hash: signed.cancel!.txHash as Hash });
    await w.chain.pub.sendRawTransaction({ serializedTransaction: rows[0]!.raw as Hex });
    await w.chain.mine(3);
    await round();
    await round();
    const done = await payout(p.id);
    expect(done).toMatchObject({ status: 'completed', txHash: p.txHash, confirmations: 3 });
    expect(await balanceOf(p.destination)).toBe(parseEther('0.03'));
    expect((await w.eventsOfPayout(p.id)).filter((t) => t === 'payout.completed')).toHaveLength(1);
    const after = await view(p.id);
    expect(after).toMatchObject({ state: 'confirmed', txHash: p.txHash, cancel: { status: 'lost' } });
    expect(after.transactions.map((t) => [t.kind, t.status])).toEqual([
      ['payment', 'confirmed'],
      ['cancel', 'replaced'],
    ]);
    expect((await audit(p.id)).map((e) => e.action)).toContain('payout.cancel_by_replacement.lost');
  });

  it('killed (SIGKILL) between storing the cancel and broadcasting it: restarted, the stored one goes out, never a second; the payout fails once', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await sentNotMined('0.05');
    resultOf(await cancel(p.id));
    // Another instance, its clock past this one's lease, dies right after committing the cancel.
    w.env.clock.offsetMs += 11_000;
    const killed = await runSenderProcess(SCRIPT, w.env, join(w.env.dataDir, `cancel-kill-${dialect}.json`), {
      HOTWALLET_KILL_AFTER_SIGN: '1',
      HOTWALLET_CLOCK_OFFSET_MS: String(w.env.clock.offsetMs),
    });
    expect(killed.signal).toBe('SIGKILL');
    const stored = await view(p.id);
    expect(stored.cancel?.status).toBe('sent');
    expect(stored.transactions.map((t) => [t.kind, t.status])).toEqual([
      ['payment', 'replaced'],
      ['cancel', 'signed'],
    ]);
    expect(stored.state).toBe('signed');
    const cancelHash = stored.cancel!.txHash as Hash;
    expect(await w.chain.pub.getTransaction({ hash: cancelHash }).catch(() => null)).toBeNull();

    // This instance takes the chain back once the dead one's lease ran out: the stored bytes go out.
    w.env.clock.offsetMs += 11_000;
    await round();
    await round();
    expect((await view(p.id)).transactions.map((t) => [t.kind, t.status])).toEqual([
      ['payment', 'replaced'],
      ['cancel', 'broadcast'],
    ]);
    await w.chain.mine(3);
    await round();
    await round();
    expect(await payout(p.id)).toMatchObject({ status: 'failed', txHash: p.txHash });
    expect(await balances(w.env.services, w.ethWallet)).toEqual(before);
    expect((await w.eventsOfPayout(p.id)).filter((t) => t === 'payout.failed')).toHaveLength(1);
    expect((await view(p.id)).cancel).toMatchObject({ status: 'canceled', txHash: cancelHash });
    expect(await balanceOf(p.destination)).toBe(0n);
  });

  it('an approved payout whose stored transaction never went out (a crash): canceled by replacement, failed once from approved, nothing paid', async () => {
    const before = await balances(w.env.services, w.ethWallet);
    const p = await w.approvedPayout(w.ethWallet, '0.06');
    await w.killedAfterSigning();
    const stored = await view(p.id);
    expect(stored).toMatchObject({ payoutStatus: 'approved', state: 'signed' });
    expect(stored.actions).toEqual(['rebroadcast', 'cancel_by_replacement']);
    // Its plain cancel stays refused: the stored bytes may still go out.
    await expect(w.env.services.payouts.cancelAny(p.id, { operator: 'alice' } as never)).rejects.toMatchObject({
      code: 'PAYOUT_STATE_CONFLICT',
    });

    await w.chain.test.setAutomine(false);
    expect(resultOf<ChainView>(await cancel(p.id)).cancel).toMatchObject({ status: 'requested' });
    await round();
    const signed = await view(p.id);
    expect(signed.transactions.map((t) => [t.kind, t.status])).toEqual([
      ['payment', 'replaced'],
      ['cancel', 'broadcast'],
    ]);
    expect((await payout(p.id)).status).toBe('approved');
    await w.chain.mine(3);
    await round();
    await round();
    const failed = await payout(p.id);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/^canceled by replacement: /);
    expect(failed.timeline.map((t) => t.status)).toEqual(['pending_approval', 'approved', 'failed']);
    expect(await balances(w.env.services, w.ethWallet)).toEqual(before);
    expect((await w.eventsOfPayout(p.id)).filter((t) => t === 'payout.failed')).toHaveLength(1);
    expect((await view(p.id)).cancel).toMatchObject({ status: 'canceled', txHash: signed.cancel!.txHash });
    expect(await balanceOf(p.destination)).toBe(0n);
    expect(await nonceOnChain()).toBe(stored.nonce + 1);
  });

  it("the payout's own transaction reverts while a cancel is in flight: the payout fails, the cancel ends lost", async () => {
    await w.chain.payToken(w.token, w.hot!, '50');
    const before = await balances(w.env.services, w.usdtWallet);
    const p = await w.approvedPayout(w.usdtWallet, '5');
    await w.chain.test.setAutomine(false);
    await round();
    const own = (await payout(p.id)).txHash as Hash;
    resultOf(await cancel(p.id));
    await round();
    const signed = await view(p.id);
    expect(signed.cancel?.status).toBe('sent');
    // The node loses the cancel and takes the payment back, which reverts (the token refuses transfers now).
    const rows = await txRows(w.env.services, p.id);
    const code = await w.chain.pub.getCode({ address: w.token });
    await w.chain.test.dropTransaction({ hash: signed.cancel!.txHash as Hash });
    await w.chain.test.setCode({ address: w.token, bytecode: '0x60006000fd' });
    try {
      await w.chain.pub.sendRawTransaction({ serializedTransaction: rows[0]!.raw as Hex });
      await w.chain.mine(1);
      expect((await w.chain.pub.getTransactionReceipt({ hash: own })).status).toBe('reverted');
    } finally {
      await w.chain.test.setCode({ address: w.token, bytecode: code! });
    }
    await round();
    const failed = await payout(p.id);
    expect(failed).toMatchObject({ status: 'failed', txHash: own });
    expect(failed.reason).toContain('reverted on chain');
    expect(await balances(w.env.services, w.usdtWallet)).toEqual(before);
    const after = await view(p.id);
    expect(after).toMatchObject({ state: 'reverted', cancel: { status: 'lost' } });
    expect(after.cancel!.resolvedAt).not.toBeNull();
    expect((await audit(p.id)).filter((e) => e.action === 'payout.cancel_by_replacement.lost')).toEqual([
      {
        action: 'payout.cancel_by_replacement.lost',
        operator: 'hot-wallet',
        after: { cancel: 'lost', minedTxHash: own, nonce: signed.nonce },
      },
    ]);
    // Settled once: more rounds add nothing.
    await round();
    expect((await audit(p.id)).filter((e) => e.action.startsWith('payout.cancel_by_replacement.'))).toHaveLength(1);
  });

  it('refused with 409 PAYOUT_STATE_CONFLICT where nothing can be replaced; 404 for an unknown payout', async () => {
    const approved = await w.approvedPayout(w.ethWallet, '0.01');
    const notSigned = errorOf(await cancel(approved.id), 409, 'PAYOUT_STATE_CONFLICT');
    expect(notSigned.error.details).toMatchObject({ status: 'approved' });
    expect(notSigned.message).toContain(`POST /admin/v1/payouts/${approved.id}/cancel`);
    expect(await view(approved.id)).toMatchObject({ state: null, nonce: null, actions: [], transactions: [] });
    errorOf(
      await w.env.admin('POST', `/payouts/${approved.id}/rebroadcast`, { body: {} }),
      409,
      'PAYOUT_STATE_CONFLICT',
    );

    // Mined, not yet at the depth: the chain decides, no replacement can take its nonce.
    await round();
    await round();
    const mined = errorOf(await cancel(approved.id), 409, 'PAYOUT_STATE_CONFLICT');
    expect(mined.error.details).toMatchObject({ status: 'sent', transaction: 'mined' });
    expect(mined.message).toMatch(/no replacement can take nonce \d+/);
    await w.chain.mine(2);
    await round();
    expect((await payout(approved.id)).status).toBe('completed');
    const completed = errorOf(await cancel(approved.id), 409, 'PAYOUT_STATE_CONFLICT');
    expect(completed.error.details).toMatchObject({ status: 'completed', transaction: 'confirmed' });
    errorOf(
      await w.env.admin('POST', `/payouts/${approved.id}/rebroadcast`, { body: {} }),
      409,
      'PAYOUT_STATE_CONFLICT',
    );
    errorOf(await cancel('po_doesnotexist'), 404, 'NOT_FOUND');
    expect((await audit(approved.id)).map((e) => e.action)).not.toContain('payout.cancel_by_replacement');
  });

  it('a transaction the node forgot and refuses again: shown forgotten with its answer, then rebroadcast and paid', async () => {
    const p = await sentNotMined('0.04');
    const hotFunds = await balanceOf(w.hot!);
    await w.chain.test.dropTransaction({ hash: p.txHash as Hash });
    await w.chain.test.setBalance({ address: w.hot!, value: 0n });
    // The round goes on: the refusal is that payout's, not the round's.
    await round();
    const forgotten = await view(p.id);
    expect(forgotten).toMatchObject({ state: 'forgotten', txHash: p.txHash });
    expect(forgotten.forgotten?.nodeAnswer).toMatch(/funds/i);
    // The node's answer only: never the request's URL (it may carry the node's API key).
    expect(JSON.stringify(forgotten)).not.toContain(`127.0.0.1:${w.anvil.port}`);
    expect(forgotten.actions).toEqual(['rebroadcast', 'cancel_by_replacement']);
    expect(forgotten.advice).toContain('rebroadcast, or cancel by replacement');
    expect(await metricValue(w.env.services, 'hostpay_hot_wallet_forgotten_transactions')).toBe(1);
    expect(resultOf(await w.env.admin('GET', '/chains/ETH/hot-wallet')).forgottenTransactions).toBe(1);

    const refused = resultOf<ChainView>(await w.env.admin('POST', `/payouts/${p.id}/rebroadcast`, { body: {} }));
    expect(refused).toMatchObject({ state: 'forgotten' });
    await w.chain.test.setBalance({ address: w.hot!, value: hotFunds });
    const accepted = resultOf<ChainView>(await w.env.admin('POST', `/payouts/${p.id}/rebroadcast`, { body: {} }));
    expect(accepted).toMatchObject({ state: 'in_flight', forgotten: null });
    expect((await audit(p.id)).filter((e) => e.action === 'payout.rebroadcast').map((e) => e.after.accepted)).toEqual([
      false,
      true,
    ]);

    await w.chain.mine(3);
    await round();
    await round();
    expect(await payout(p.id)).toMatchObject({ status: 'completed', txHash: p.txHash });
    expect(await metricValue(w.env.services, 'hostpay_hot_wallet_forgotten_transactions')).toBe(0);
    expect(resultOf(await w.env.admin('GET', '/chains/ETH/hot-wallet')).forgottenTransactions).toBe(0);
    expect(await balanceOf(p.destination)).toBe(parseEther('0.04'));
  });
});
