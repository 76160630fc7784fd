import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import type { AuditEntry, Checkout, Page, SettlePreviewView, Transfer } from '../views.js';
import {
  ActionStatus,
  Amount,
  ErrorNote,
  Field,
  link,
  Loading,
  Pager,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';
import { AUDIT_ACTION, AUDIT_AFTER, AuditTrail } from './audit.js';
import { CheckoutFacts, Received } from './checkouts.js';

/** The exceptions operators resolve: checkouts in review (settle / reject) and unmatched transfers (attach). */
export function Queues() {
  return (
    <section aria-labelledby="queues-h">
      <h1 id="queues-h">Work queues</h1>
      <ReviewQueue />
      <UnmatchedQueue />
      <RecentResolutions />
    </section>
  );
}

function ReviewQueue() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Checkout>>(`/checkouts${qs({ status: 'needs_review', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <h2>Checkouts needing review</h2>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="checkouts in review" />
      ) : list.data.items.length === 0 ? (
        <p class="muted" data-testid="review-empty">
          No checkout needs review.
        </p>
      ) : (
        <ul class="queue" data-testid="review-queue">
          {list.data.items.map((c) => (
            <li key={c.id} data-checkout={c.id}>
              <div class="queue-head">
                <a href={link(`/checkouts/${c.id}`)}>{c.id}</a> <span class="status s-needs_review">{c.reason}</span>{' '}
                <a href={link(`/merchants/${c.merchant.id}`)} data-testid="queue-merchant">
                  {c.merchant.name}
                </a>{' '}
                · asked <Amount value={c.amount} unit={c.currency} /> · received{' '}
                <span data-testid="queue-received">
                  <Received c={c} />
                </span>{' '}
                · {c.description ?? c.orderId ?? ''} · created {time(c.createdAt)}
                <button
                  type="button"
                  class="link"
                  aria-expanded={open === c.id}
                  onClick={() => setOpen(open === c.id ? null : c.id)}
                >
                  {open === c.id ? 'Close' : 'Resolve'}
                </button>
              </div>
              {open === c.id ? <Resolve c={c} onDone={list.reload} /> : null}
            </li>
          ))}
        </ul>
      )}
      {list.data ? (
        <Pager pager={pager} nextCursor={list.data.nextCursor} label="Pages of checkouts in review" />
      ) : null}
    </>
  );
}

/**
 * Settle credits what was received (at the locked rate, or today's for an asset not offered) minus
 * the fee; reject credits nothing. Both ask first: the settle's confirmation shows the server's
 * own preview (GET /checkouts/{id}/settle-preview), the figures the settle will post.
 */
function Resolve({ c, onDone }: { c: Checkout; onDone: () => void }) {
  const action = useAction();
  const confirm = useConfirm();
  const groups = [...new Set(c.payments.filter((p) => !p.retracted).map((p) => `${p.asset}/${p.chain}`))];
  const [group, setGroup] = useState(groups[0] ?? '');
  const [asset, chain] = group.split('/');
  const choice = groups.length > 1 ? { asset, chain } : {};
  const settle = () =>
    action.run('', async () => {
      const p = await admin<SettlePreviewView>(`/checkouts/${c.id}/settle-preview${qs(choice)}`);
      confirm.ask({
        title: `Settle ${c.id} for ${p.merchant.name}?`,
        warnings: settleWarnings(p),
        body: <SettlePreview p={p} />,
        confirm: `Settle: credit ${p.credit.amount} ${p.credit.asset}`,
        action: async () =>
          (await action.run(`Checkout ${c.id} settled: ${p.credit.amount} ${p.credit.asset} credited.`, () =>
            adminWrite('POST', `/checkouts/${c.id}/settle`, choice),
          )) && onDone(),
      });
    });
  const reject = () =>
    confirm.ask({
      title: `Reject ${c.id} of ${c.merchant.name}?`,
      danger: true,
      body: (
        <p>
          The checkout becomes invalid and nothing is credited to {c.merchant.name}; the payments received (
          <Received c={c} />) stay on the chain, credited to nobody. This cannot be undone.
        </p>
      ),
      confirm: 'Reject: credit nothing',
      action: async () =>
        (await action.run(`Checkout ${c.id} rejected.`, () => adminWrite('POST', `/checkouts/${c.id}/reject`))) &&
        onDone(),
    });
  return (
    <div class="resolve">
      <CheckoutFacts c={c} />
      <AuditTrail objectId={c.id} />
      <div class="actions">
        {groups.length > 1 ? (
          <Field label="Credit the payments in">
            <select value={group} onChange={(e) => setGroup(e.currentTarget.value)}>
              {groups.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <button type="button" class="primary" disabled={action.busy} onClick={settle}>
          Settle (credit what was received, minus the fee)…
        </button>
        <button type="button" class="danger" disabled={action.busy} onClick={reject}>
          Reject (credit nothing)…
        </button>
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </div>
  );
}

function settleWarnings(p: SettlePreviewView): string[] {
  const w: string[] = [];
  if (!p.wallet.exists)
    w.push(`${p.merchant.name} has no ${p.credit.asset} wallet on ${p.credit.chain}: the settle creates one.`);
  else if (!p.wallet.active)
    w.push(
      `The ${p.credit.asset} wallet on ${p.credit.chain} of ${p.merchant.name} is inactive: it is credited all the same.`,
    );
  if (p.merchant.status !== 'active') w.push(`${p.merchant.name} is ${p.merchant.status}.`);
  if (p.value.rateSource === 'current')
    w.push(
      `${p.received.asset} was not offered by this checkout: it is valued at today's ${p.value.currency}/${p.received.asset} rate.`,
    );
  return w;
}

/** The settle preview's figures, exact as the API gives them. */
function SettlePreview({ p }: { p: SettlePreviewView }) {
  return (
    <dl class="facts" data-testid="settle-preview">
      <dt>Merchant</dt>
      <dd data-testid="preview-merchant">{p.merchant.name}</dd>
      <dt>Received</dt>
      <dd data-testid="preview-received">
        <Amount value={p.received.amount} unit={p.received.asset} /> on {p.received.chain}
      </dd>
      <dt>Valued at</dt>
      <dd>
        <Amount value={p.value.amount} unit={p.value.currency} /> (1 {p.value.currency} ={' '}
        <Amount value={p.value.rate} unit={p.received.asset} />,{' '}
        {p.value.rateSource === 'locked' ? 'the rate locked at creation' : "today's rate"})
      </dd>
      <dt>Fee</dt>
      <dd data-testid="preview-fee">
        <Amount value={p.fee.amount} unit={p.fee.asset} /> (<Amount value={p.fee.quoted} unit={p.fee.currency} />)
      </dd>
      <dt>Credited</dt>
      <dd data-testid="preview-credit">
        <strong>
          <Amount value={p.credit.amount} unit={p.credit.asset} />
        </strong>{' '}
        on {p.credit.chain}
      </dd>
      <dt>Into wallet</dt>
      <dd data-testid="preview-wallet">
        {p.wallet.exists ? (
          <>
            <code>{p.wallet.id}</code> ({p.wallet.active ? 'active' : 'inactive'}, balance{' '}
            <Amount value={p.wallet.balance} unit={p.credit.asset} />)
          </>
        ) : (
          'a new wallet (created by the settle)'
        )}
      </dd>
    </dl>
  );
}

function UnmatchedQueue() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<Transfer>>(`/transfers${qs({ matched: 'false', cursor: pager.cursor })}`),
    [pager.cursor],
  );
  return (
    <>
      <h2>Unmatched transfers</h2>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="unmatched transfers" />
      ) : list.data.items.length === 0 ? (
        <p class="muted">No unmatched transfer.</p>
      ) : (
        <ul class="queue" data-testid="unmatched-queue">
          {list.data.items.map((t) => (
            <li key={t.id}>
              <div class="queue-head">
                {t.id}: <Amount value={t.amount} unit={t.asset} /> on {t.chain} to <code>{t.toAddress}</code> · tx{' '}
                <code>{t.txHash}</code> · seen {time(t.detectedAt)}
              </div>
              <Attach transfer={t} onDone={list.reload} />
            </li>
          ))}
        </ul>
      )}
      {list.data ? (
        <Pager pager={pager} nextCursor={list.data.nextCursor} label="Pages of unmatched transfers" />
      ) : null}
    </>
  );
}

function Attach({ transfer, onDone }: { transfer: Transfer; onDone: () => void }) {
  const [checkoutId, setCheckoutId] = useState('');
  const action = useAction();
  const confirm = useConfirm();
  return (
    <form
      class="actions"
      onSubmit={(e) => {
        e.preventDefault();
        const id = checkoutId.trim();
        void action.run('', async () => {
          const c = await admin<Checkout>(`/checkouts/${id}`);
          confirm.ask({
            title: `Give ${transfer.id} to ${id} of ${c.merchant.name}?`,
            body: (
              <p>
                <Amount value={transfer.amount} unit={transfer.asset} /> on {transfer.chain} (tx{' '}
                <code>{transfer.txHash}</code>) becomes a payment of checkout {id} ({c.status}, asked{' '}
                <Amount value={c.amount} unit={c.currency} />, received so far <Received c={c} />
                ). If it completes the checkout, {c.merchant.name} is credited at once.
              </p>
            ),
            confirm: 'Attach',
            action: async () =>
              (await action.run(`Transfer ${transfer.id} attached to ${id}.`, () =>
                adminWrite('POST', `/transfers/${transfer.id}/attach`, { checkoutId: id }),
              )) && onDone(),
          });
        });
      }}
    >
      <Field label={`Checkout to give ${transfer.id} to`}>
        <input required value={checkoutId} placeholder="chk_…" onInput={(e) => setCheckoutId(e.currentTarget.value)} />
      </Field>
      <button type="submit" disabled={action.busy}>
        Attach
      </button>
      <ActionStatus action={action} />
      {confirm.dialog}
    </form>
  );
}

function RecentResolutions() {
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const settles = useAsync(async () => {
    const lists = await Promise.all(
      ['checkout.settle', 'checkout.reject', 'transfer.attach'].map((action) =>
        admin<Page<AuditEntry>>(`/audit${qs({ action, since, limit: '50' })}`),
      ),
    );
    return lists.flatMap((l) => l.items).sort((a, b) => (a.at < b.at ? 1 : -1));
  }, []);
  return (
    <>
      <h2>Resolutions in the last 30 days (audit trail)</h2>
      <ErrorNote error={settles.error} />
      {settles.data === undefined ? (
        <Loading what="the audit trail" />
      ) : (
        <Table
          caption="Recent resolutions"
          rows={settles.data}
          rowKey={(r) => r.id}
          columns={[
            ...AUDIT_ACTION,
            {
              label: 'Object',
              render: (r) =>
                r.objectType === 'checkout' ? <a href={link(`/checkouts/${r.objectId}`)}>{r.objectId}</a> : r.objectId,
            },
            AUDIT_AFTER,
          ]}
          empty="No resolutions yet."
        />
      )}
    </>
  );
}
