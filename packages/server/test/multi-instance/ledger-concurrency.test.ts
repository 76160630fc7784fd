import { Decimal } from '@hostpay/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bounded, clusterAvailable, prng, startCluster, type Cluster, type Reply } from './cluster.js';

/**
 * "Production mode", item 4: the ledger under concurrency, through two server processes that
 * share one PostgreSQL schema and Redis. Requests alternate between the instances, so two pools
 * of connections race for the same wallet row. What must hold (PRODUCT.md, Balances): every
 * posting atomic and idempotent, `0 <= freezeAmount <= amount` always, no posting lost or
 * applied twice, and a refused posting writes nothing.
 */

type Kind = 'credit' | 'debit' | 'freeze' | 'unfreeze';

interface PostingView {
  id: string;
  walletId: string;
  kind: Kind;
  amount: string;
  idempotencyKey: string;
  amountAfter: string;
  freezeAmountAfter: string;
  createdAt: string;
}

interface WalletView {
  id: string;
  amount: string;
  freezeAmount: string;
}

const D = (text: string) => new Decimal(text);

/** The balances after applying `p` to (amount, frozen). */
function applyPosting(p: { kind: Kind; amount: string }, amount: Decimal, frozen: Decimal): [Decimal, Decimal] {
  const x = D(p.amount);
  switch (p.kind) {
    case 'credit':
      return [amount.plus(x), frozen];
    case 'debit':
      return [amount.minus(x), frozen];
    case 'freeze':
      return [amount, frozen.plus(x)];
    case 'unfreeze':
      return [amount, frozen.minus(x)];
  }
}

/** Checks a wallet's whole history: each posting's balances follow from the one before and keep the invariant. */
function checkHistory(history: PostingView[]): [Decimal, Decimal] {
  let amount = D('0');
  let frozen = D('0');
  for (const [n, p] of history.entries()) {
    [amount, frozen] = applyPosting(p, amount, frozen);
    const where = `posting #${n} ${p.id} (${p.kind} ${p.amount}, key ${p.idempotencyKey})`;
    expect(
      D(p.amountAfter).equals(amount),
      `${where}: amountAfter ${p.amountAfter}, expected ${amount.toFixed()} from the postings before it`,
    ).toBe(true);
    expect(
      D(p.freezeAmountAfter).equals(frozen),
      `${where}: freezeAmountAfter ${p.freezeAmountAfter}, expected ${frozen.toFixed()}`,
    ).toBe(true);
    expect(
      frozen.gte(0) && frozen.lte(amount),
      `${where}: 0 <= ${frozen.toFixed()} <= ${amount.toFixed()} broken`,
    ).toBe(true);
  }
  return [amount, frozen];
}

function errorCode(reply: Reply): string | undefined {
  return reply.json<{ error?: { code: string } }>().error?.code;
}

const postingOf = (reply: Reply) => reply.json<{ result: { posting: PostingView; replayed: boolean } }>().result;

describe.runIf(clusterAvailable)('the ledger under concurrency, across two instances (PostgreSQL + Redis)', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster();
  }, 90_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  /** A fresh wallet of a fresh merchant, credited with `initial` (one posting). */
  async function fundedWallet(initial: string): Promise<string> {
    const { walletIds } = await cluster.seed();
    const walletId = walletIds[0]!;
    await cluster.adminOk(0, 'POST', `/wallets/${walletId}/postings`, {
      body: { kind: 'credit', amount: initial, idempotencyKey: 'initial' },
      status: 201,
    });
    return walletId;
  }

  /** The wallet as both instances show it; the two answers must be the same bytes. */
  async function walletFromBoth(walletId: string): Promise<WalletView> {
    const [a, b] = await Promise.all([
      cluster.admin(0, 'GET', `/wallets/${walletId}`),
      cluster.admin(1, 'GET', `/wallets/${walletId}`),
    ]);
    expect(a.status, a.body).toBe(200);
    expect(b.body).toBe(a.body);
    return a.json<{ result: WalletView }>().result;
  }

  it('2,000 mixed concurrent postings with repeated keys: balance = sum of accepted postings, nothing applied twice, refusals leave nothing', async () => {
    const seed = Number(process.env.HOSTPAY_TEST_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    console.log(`[multi-instance] 2,000 postings: seed ${seed} (HOSTPAY_TEST_SEED=${seed} replays this run)`);
    const walletId = await fundedWallet('100');

    // The operations: fresh keys, exact retries of earlier ones (same key and body), and a few
    // conflicting reuses (same key, another amount). The posting key travels either as the
    // Idempotency-Key header (admin idempotency + ledger) or only in the body (ledger alone).
    interface Op {
      key: string;
      via: 'header' | 'body';
      kind: Kind;
      amount: string;
    }
    const KINDS: Kind[] = [
      'credit',
      'credit',
      'credit',
      'debit',
      'debit',
      'debit',
      'freeze',
      'freeze',
      'unfreeze',
      'unfreeze',
    ];
    const amount = () => {
      let text: string;
      do {
        const fraction = Array.from({ length: 1 + Math.floor(random() * 18) }, () => Math.floor(random() * 10)).join(
          '',
        );
        text = `${Math.floor(random() * 12)}.${fraction}`;
      } while (D(text).isZero());
      return text;
    };
    const ops: Op[] = [];
    for (let n = 0; n < 1_750; n++) {
      const via = random() < 0.7 ? 'header' : 'body';
      // Every 90th can never apply (credits total at most ~6,400), so refusals are certain.
      if (n % 90 === 0)
        ops.push({
          key: `a-${seed}-${n}`,
          via,
          kind: (['debit', 'freeze', 'unfreeze'] as const)[n % 3]!,
          amount: '1000000',
        });
      else
        ops.push({ key: `a-${seed}-${n}`, via, kind: KINDS[Math.floor(random() * KINDS.length)]!, amount: amount() });
    }
    for (let n = 0; n < 200; n++) ops.push({ ...ops[Math.floor(random() * 1_750)]! });
    for (let n = 0; n < 50; n++) {
      const original = ops[Math.floor(random() * 1_750)]!;
      ops.push({ ...original, amount: D(original.amount).plus('0.5').toFixed() });
    }
    for (let i = ops.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ops[i], ops[j]] = [ops[j]!, ops[i]!];
    }
    expect(ops).toHaveLength(2_000);

    const started = performance.now();
    const replies = await bounded(ops.length, 100, (i) => {
      const op = ops[i]!;
      const body =
        op.via === 'header'
          ? { kind: op.kind, amount: op.amount }
          : { kind: op.kind, amount: op.amount, idempotencyKey: op.key };
      return cluster.admin(i % 2, 'POST', `/wallets/${walletId}/postings`, {
        body,
        ...(op.via === 'header' ? { idempotencyKey: op.key } : {}),
      });
    });
    const elapsed = performance.now() - started;

    // Every answer is one of the documented outcomes.
    const statuses = new Map<number, number>();
    for (const [i, reply] of replies.entries()) {
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const op = ops[i]!;
      if (reply.status === 201 || reply.status === 200) {
        const { posting, replayed } = postingOf(reply);
        // A reply never describes another request's posting.
        expect(posting.kind, reply.body).toBe(op.kind);
        expect(D(posting.amount).equals(D(op.amount)), reply.body).toBe(true);
        expect(posting.idempotencyKey).toBe(op.key);
        expect(posting.walletId).toBe(walletId);
        // 200 is the ledger's own replay (key in the body); a header replay repeats the 201.
        expect(replayed, reply.body).toBe(reply.status === 200);
      } else if (reply.status === 422) {
        expect(errorCode(reply), reply.body).toBe('INSUFFICIENT_FUNDS');
      } else if (reply.status === 409) {
        expect(errorCode(reply), reply.body).toBe('IDEMPOTENCY_CONFLICT');
      } else {
        throw new Error(`unexpected answer to ${JSON.stringify(op)}: HTTP ${reply.status} ${reply.body}`);
      }
    }

    // Per idempotency key: at most one posting, every success names it, replays are exact.
    const groups = new Map<string, number[]>();
    for (const [i, op] of ops.entries()) groups.set(op.key, [...(groups.get(op.key) ?? []), i]);
    const accepted = new Map<string, PostingView>(); // key -> the posting its 201 created
    let headerReplays = 0;
    for (const [key, members] of groups) {
      const successes = members.filter((i) => replies[i]!.status < 300);
      const ids = new Set(successes.map((i) => postingOf(replies[i]!).posting.id));
      expect(ids.size, `key ${key}: ${successes.map((i) => replies[i]!.body).join('\n')}`).toBeLessThanOrEqual(1);
      const created = members.filter(
        (i) => replies[i]!.status === 201 && replies[i]!.headers.get('idempotent-replayed') === null,
      );
      expect(created.length, `key ${key}: more than one posting created`).toBeLessThanOrEqual(1);
      if (successes.length > 0) {
        expect(created, `key ${key}: a success without the 201 that created it`).toHaveLength(1);
        accepted.set(key, postingOf(replies[created[0]!]!).posting);
      }
      if (ops[members[0]!]!.via === 'header') {
        // Requests with the same body under the same header key get the same bytes: the
        // first answer (201, or the 422 that wrote nothing), replayed. Another body gets 409.
        const byBody = new Map<string, number[]>();
        for (const i of members)
          byBody.set(`${ops[i]!.kind} ${ops[i]!.amount}`, [
            ...(byBody.get(`${ops[i]!.kind} ${ops[i]!.amount}`) ?? []),
            i,
          ]);
        const ran = [...byBody.values()].filter((same) => same.some((i) => replies[i]!.status !== 409));
        expect(ran.length, `key ${key}: two different requests ran under one Idempotency-Key`).toBeLessThanOrEqual(1);
        for (const same of ran) {
          const first = replies[same[0]!]!;
          for (const i of same) {
            expect(replies[i]!.status, `key ${key}`).toBe(first.status);
            expect(replies[i]!.body, `key ${key}`).toBe(first.body);
          }
          const replayedCount = same.filter((i) => replies[i]!.headers.get('idempotent-replayed') === 'true').length;
          expect(replayedCount, `key ${key}: replays`).toBe(same.length - 1);
          headerReplays += replayedCount;
        }
      }
    }

    // The history: one posting per accepted key, the same bytes the 201 carried, nothing else.
    const history = await cluster.adminList<PostingView>(`/wallets/${walletId}/postings`);
    expect(history[0]?.idempotencyKey).toBe('initial');
    const rest = history.slice(1);
    expect(new Set(rest.map((p) => p.idempotencyKey)).size, 'a key posted twice').toBe(rest.length);
    expect(rest.length).toBe(accepted.size);
    for (const p of rest) expect(p, `posting ${p.id} has no accepted request`).toEqual(accepted.get(p.idempotencyKey));
    const refusedKeys = [...groups.keys()].filter((key) => !accepted.has(key));
    expect(refusedKeys.length).toBeGreaterThanOrEqual(20);
    expect(
      history.filter((p) => refusedKeys.includes(p.idempotencyKey)),
      'a refused posting left a trace',
    ).toEqual([]);
    const { rows } = await cluster.db.query<{ n: string }>(
      'select count(*) as n from ledger_postings where wallet_id = $1',
      [walletId],
    );
    expect(Number(rows[0]!.n)).toBe(accepted.size + 1);
    const audit = await cluster.adminList<{ action: string }>(`/audit?objectType=wallet&objectId=${walletId}`);
    expect(audit.filter((e) => /^wallet\.(credit|debit|freeze|unfreeze)$/.test(e.action))).toHaveLength(
      accepted.size + 1,
    );

    // Balances: from the accepted replies, from the history, and as the wallet shows them.
    let amountNow = D('100');
    let frozenNow = D('0');
    for (const p of accepted.values()) [amountNow, frozenNow] = applyPosting(p, amountNow, frozenNow);
    const [historyAmount, historyFrozen] = checkHistory(history);
    const wallet = await walletFromBoth(walletId);
    expect(
      D(wallet.amount).equals(amountNow),
      `wallet ${wallet.amount} vs accepted postings ${amountNow.toFixed()}`,
    ).toBe(true);
    expect(
      D(wallet.freezeAmount).equals(frozenNow),
      `frozen ${wallet.freezeAmount} vs accepted postings ${frozenNow.toFixed()}`,
    ).toBe(true);
    expect(historyAmount.equals(amountNow) && historyFrozen.equals(frozenNow)).toBe(true);

    // The run exercised every path it claims to.
    expect(statuses.get(201) ?? 0).toBeGreaterThan(500);
    expect(statuses.get(422) ?? 0).toBeGreaterThanOrEqual(20);
    expect(statuses.get(409) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(headerReplays).toBeGreaterThan(0);
    console.log(
      `[multi-instance] 2,000 postings in ${(elapsed / 1000).toFixed(1)} s (${Math.round(2_000 / (elapsed / 1000))}/s, 100 in flight): ` +
        `${[...statuses]
          .sort()
          .map(([s, n]) => `${n}×${s}`)
          .join(', ')}; ${accepted.size} postings, ${headerReplays} header replays; ` +
        `final amount ${wallet.amount}, frozen ${wallet.freezeAmount}`,
    );
  }, 90_000);

  it('balance 100, 1,000 concurrent debits of 1: exactly 100 accepted, 900 INSUFFICIENT_FUNDS, never below 0', async () => {
    const walletId = await fundedWallet('100');
    const started = performance.now();
    const replies = await bounded(1_000, 200, (i) =>
      cluster.admin(i % 2, 'POST', `/wallets/${walletId}/postings`, { body: { kind: 'debit', amount: '1' } }),
    );
    const elapsed = performance.now() - started;

    const accepted = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status === 422);
    expect(
      accepted.length + refused.length,
      replies
        .filter((r) => r.status !== 201 && r.status !== 422)
        .map((r) => r.body)
        .join('\n'),
    ).toBe(1_000);
    expect(accepted).toHaveLength(100);
    expect(refused).toHaveLength(900);
    for (const r of refused) expect(errorCode(r)).toBe('INSUFFICIENT_FUNDS');
    // Both instances took part in both outcomes.
    for (const instance of [0, 1]) {
      expect(accepted.some((r) => r.instance === instance)).toBe(true);
      expect(refused.some((r) => r.instance === instance)).toBe(true);
    }
    // Each accepted debit left a distinct balance: 99, 98, …, 0.
    const after = accepted.map((r) => postingOf(r).posting.amountAfter).sort((x, y) => D(x).comparedTo(D(y)));
    expect(after).toEqual(Array.from({ length: 100 }, (_, n) => String(n)));

    const history = await cluster.adminList<PostingView>(`/wallets/${walletId}/postings`);
    expect(history).toHaveLength(101);
    const [amount, frozen] = checkHistory(history);
    for (const p of history) expect(D(p.amountAfter).gte(0)).toBe(true);
    expect(amount.isZero() && frozen.isZero()).toBe(true);
    const wallet = await walletFromBoth(walletId);
    expect(wallet.amount).toBe('0');
    expect(wallet.freezeAmount).toBe('0');
    console.log(
      `[multi-instance] 1,000 debits of 1 on a balance of 100 in ${(elapsed / 1000).toFixed(1)} s: 100×201, 900×422`,
    );
  }, 60_000);

  it('one Idempotency-Key sent 50 times at once across both instances: one posting, 49 identical replays; another body is 409', async () => {
    const walletId = await fundedWallet('10');
    const key = 'same-key-50';
    const body = { kind: 'debit', amount: '2.5' };
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        cluster.admin(i % 2, 'POST', `/wallets/${walletId}/postings`, { body, idempotencyKey: key }),
      ),
    );

    const first = replies[0]!;
    // On failure, every answer and both servers' logs: a second run of the key shows up there.
    const story = () =>
      [
        ...replies.map((r, i) => `#${i} ${r.status} ${r.headers.get('idempotent-replayed') ?? '-'} ${r.body}`),
        ...cluster.instances.map((i) => `${i.name} stderr: ${i.stderr().slice(-4000)}`),
      ].join('\n');
    expect(first.status, story()).toBe(201);
    for (const r of replies) {
      expect(r.status).toBe(201);
      expect(r.body).toBe(first.body);
    }
    expect(replies.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
    const { posting } = postingOf(first);
    expect(posting).toMatchObject({
      kind: 'debit',
      amount: '2.5',
      amountAfter: '7.5',
      freezeAmountAfter: '0',
      idempotencyKey: key,
    });

    // The same key with another body, on either instance: refused, and nothing more is posted.
    for (const target of [0, 1]) {
      const conflict = await cluster.admin(target, 'POST', `/wallets/${walletId}/postings`, {
        body: { kind: 'debit', amount: '3' },
        idempotencyKey: key,
      });
      expect(conflict.status, conflict.body).toBe(409);
      expect(errorCode(conflict)).toBe('IDEMPOTENCY_CONFLICT');
    }
    const history = await cluster.adminList<PostingView>(`/wallets/${walletId}/postings`);
    expect(history.map((p) => p.idempotencyKey)).toEqual(['initial', key]);
    expect(history[1]).toEqual(posting);
    expect((await walletFromBoth(walletId)).amount).toBe('7.5');
  });

  it('one posting key (in the body, no header) sent 50 times at once: one 201 and 49 replays of the same posting; another amount is 409', async () => {
    const walletId = await fundedWallet('10');
    const body = { kind: 'freeze', amount: '0.000000000000000001', idempotencyKey: 'body-key-50' };
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) => cluster.admin(i % 2, 'POST', `/wallets/${walletId}/postings`, { body })),
    );

    const created = replies.filter((r) => r.status === 201);
    const replayed = replies.filter((r) => r.status === 200);
    expect(created, replies.map((r) => `${r.status} ${r.body}`).join('\n')).toHaveLength(1);
    expect(replayed).toHaveLength(49);
    const { posting } = postingOf(created[0]!);
    expect(posting).toMatchObject({
      kind: 'freeze',
      amount: '0.000000000000000001',
      amountAfter: '10',
      freezeAmountAfter: '0.000000000000000001',
    });
    for (const r of replayed) expect(postingOf(r)).toEqual({ posting, replayed: true });
    // Every replay is the same bytes.
    expect(new Set(replayed.map((r) => r.body)).size).toBe(1);

    for (const target of [0, 1]) {
      const conflict = await cluster.admin(target, 'POST', `/wallets/${walletId}/postings`, {
        body: { ...body, amount: '0.000000000000000002' },
      });
      expect(conflict.status, conflict.body).toBe(409);
      expect(errorCode(conflict)).toBe('IDEMPOTENCY_CONFLICT');
    }
    const history = await cluster.adminList<PostingView>(`/wallets/${walletId}/postings`);
    expect(history).toHaveLength(2);
    expect(history[1]).toEqual(posting);
    expect(await walletFromBoth(walletId)).toMatchObject({ amount: '10', freezeAmount: '0.000000000000000001' });
  });
});
