import { useState } from 'preact/hooks';
import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';
import { ActionForm } from '../../ui-kit/action-form.js';
import {
  ActionStatus,
  Amount,
  ErrorNote,
  Field,
  Loading,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';
import { can, cp, cpPage, cpWrite, type Session } from '../api.js';
import { Link, navigate } from '../router.js';
import type { Checkout, CheckoutItem, CheckoutMoney } from '../views.js';
import { CheckoutDeliveries, CheckoutEvents } from './checkout-activity.js';
import { MoneyFacts, RefundList, timelineAmount } from './checkout-money.js';

/** Checkouts: the list with its filters, one checkout in full, and a new checkout to share. */

const STATUSES = ['', 'open', 'underpaid', 'processing', 'settled', 'expired', 'canceled', 'needs_review', 'invalid'];

export function Status({ status }: { status: string }) {
  return <span class={`status s-${status}`}>{status.replace('_', ' ')}</span>;
}

export function CheckoutList({ session }: { session: Session }) {
  const pager = usePager();
  const filters = useFilters({ status: '', orderId: '', createdFrom: '', createdTo: '' });
  const f = filters.applied;
  const page = useAsync(
    () =>
      cpPage<CheckoutItem>('/psp/hosted-pay', {
        status: f.status,
        orderId: f.orderId,
        createdFrom: f.createdFrom && `${f.createdFrom}T00:00:00.000Z`,
        createdTo: f.createdTo && `${f.createdTo}T00:00:00.000Z`,
        cursor: pager.cursor,
      }),
    [f, pager.cursor],
  );
  return (
    <>
      <div class="page-head">
        <h1>Checkouts</h1>
        {can(session, 'checkout:write') ? (
          <Link to="/checkouts/new" class="button primary">
            New checkout
          </Link>
        ) : null}
      </div>
      <FilterForm filters={filters} pager={pager}>
        <FilterInput filters={filters} name="orderId" label="Order id" />
        <Field label="Status">
          <select value={filters.draft.status} onChange={(e) => filters.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? 'any' : s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={filters} name="createdFrom" label="Created from" date />
        <FilterInput filters={filters} name="createdTo" label="Created before" date />
      </FilterForm>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what="checkouts"
        pager={pager}
        caption="Checkouts, newest first"
        empty="No checkout matches."
        columns={[
          { label: 'Checkout', render: (c) => <Link to={`/checkouts/${c.id}`}>{c.orderId ?? shortId(c.id)}</Link> },
          { label: 'Status', render: (c) => <Status status={c.status} /> },
          { label: 'Amount', num: true, render: (c) => <Amount value={c.amount} unit={c.currency} /> },
          { label: 'Created', render: (c) => time(c.createdAt) },
        ]}
      />
    </>
  );
}

export const shortId = (id: string) => (id.length > 18 ? `${id.slice(0, 14)}…` : id);

export function CheckoutDetail({ id, session }: { id: string; session: Session }) {
  const checkout = useAsync(() => cp<Checkout>(`/psp/hosted-pay/${encodeURIComponent(id)}`), [id]);
  // The money (received, fee, net credited, refunds) needs payouts:read; without it the page shows none.
  const reads = can(session, 'payouts:read');
  const money = useAsync(
    () => (reads ? cp<CheckoutMoney>(`/psp/hosted-pay/${encodeURIComponent(id)}/refunds`) : Promise.resolve(undefined)),
    [id, reads],
  );
  const m = money.data;
  const c = checkout.data;
  const confirm = useConfirm();
  const action = useAction();
  if (c === undefined)
    return (
      <>
        <h1>Checkout</h1>
        {checkout.error ? <ErrorNote error={checkout.error} /> : <Loading what="the checkout" />}
      </>
    );
  return (
    <>
      <p>
        <Link to="/checkouts">← Checkouts</Link>
      </p>
      <h1>
        Checkout {c.orderId ? <>for order {c.orderId}</> : null} <Status status={c.status} />
        {m?.refundState ? (
          <>
            {' '}
            <span class="status s-refunded" data-testid="refund-state">
              {m.refundState}
            </span>
          </>
        ) : null}
      </h1>
      <dl class="facts" data-testid="checkout-facts">
        <dt>Id</dt>
        <dd>
          <code>{c.id}</code>
        </dd>
        <dt>Amount</dt>
        <dd>
          <Amount value={c.amount} unit={c.currency} />
        </dd>
        <dt>Status</dt>
        <dd data-testid="checkout-status">{c.status}</dd>
        <dt>Payment page</dt>
        <dd>
          <a href={c.url} data-testid="pay-link">
            {c.url}
          </a>
        </dd>
        <dt>Description</dt>
        <dd>{c.description ?? '—'}</dd>
        <dt>Expires</dt>
        <dd>{time(c.expiresAt)}</dd>
        {m ? <MoneyFacts money={m} /> : null}
      </dl>
      <ErrorNote error={money.error} />
      {c.status === 'open' && can(session, 'checkout:write') ? (
        <div class="actions">
          <button
            type="button"
            class="danger"
            onClick={() =>
              confirm.ask({
                title: 'Cancel this checkout?',
                body: <p>The payer can no longer pay it. This cannot be undone.</p>,
                confirm: 'Cancel checkout',
                danger: true,
                action: () => action.run('Checkout canceled.', () => cpWrite('POST', `/psp/hosted-pay/${c.id}/cancel`)),
              })
            }
          >
            Cancel checkout
          </button>
        </div>
      ) : null}
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>Payment options</h2>
      <Table
        caption="Payment options"
        rows={c.paymentOptions}
        rowKey={(o) => `${o.asset}-${o.chain}`}
        columns={[
          { label: 'Asset', render: (o) => `${o.asset} on ${o.chain}` },
          { label: 'Due', num: true, render: (o) => <Amount value={o.amountDue} unit={o.asset} /> },
          { label: 'Address', render: (o) => <code class="clip">{o.address}</code> },
        ]}
      />
      <h2>Payments</h2>
      <Table
        caption="Payments"
        rows={c.payments}
        rowKey={(p) => p.id}
        empty="No payment yet."
        columns={[
          { label: 'Amount', num: true, render: (p) => <Amount value={p.amount} unit={p.asset} /> },
          { label: 'Confirmations', num: true, render: (p) => String(p.confirmations) },
          { label: 'Transaction', render: (p) => <code class="clip">{p.txHash}</code> },
        ]}
      />
      <h2>Timeline</h2>
      <ol class="timeline" data-testid="timeline">
        {c.timeline.map((t) => (
          <li key={`${t.at}-${t.status}`}>
            {time(t.at)} <Status status={t.status} /> {timelineAmount(t, m)}
            {t.reason ? <span class="muted">{t.reason}</span> : null}
          </li>
        ))}
      </ol>
      {m && m.refunds.length > 0 ? <RefundList money={m} /> : null}
      {m && Number(m.refundable) > 0 && can(session, 'payouts:write') ? <Refund checkout={c} money={m} /> : null}
      <CheckoutEvents id={c.id} />
      {can(session, 'webhooks:write') ? <CheckoutDeliveries id={c.id} /> : null}
    </>
  );
}

export function NewCheckout({ session }: { session: Session }) {
  const [form, setForm] = useState({ amount: '', currency: 'EUR', orderId: '', description: '' });
  const [created, setCreated] = useState<Checkout | null>(null);
  const action = useAction();
  const set = (k: keyof typeof form) => (e: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  if (!can(session, 'checkout:write'))
    return (
      <>
        <h1>New checkout</h1>
        <p>Your role ({session.role}) cannot create checkouts.</p>
      </>
    );
  return (
    <>
      <h1>New checkout</h1>
      <p class="muted">A checkout is a payment link: share it, or send your customer to it from your shop.</p>
      <ActionForm
        action={action}
        submit="Create checkout"
        onSubmit={() =>
          action.run('Checkout created.', async () => {
            const body: Record<string, string> = { amount: form.amount.trim(), currency: form.currency.trim() };
            if (form.orderId.trim()) body.orderId = form.orderId.trim();
            if (form.description.trim()) body.description = form.description.trim();
            setCreated(await cpWrite<Checkout>('POST', '/psp/hosted-pay', body));
          })
        }
      >
        <div class="grid">
          <Field label="Amount">
            <input required inputMode="decimal" value={form.amount} onInput={set('amount')} />
          </Field>
          <Field label="Currency" hint="e.g. EUR, USD, USDT">
            <input required value={form.currency} onInput={set('currency')} />
          </Field>
          <Field label="Order id (optional)">
            <input value={form.orderId} onInput={set('orderId')} maxLength={64} />
          </Field>
        </div>
        <Field label="Description (optional, shown to the payer)">
          <input value={form.description} onInput={set('description')} maxLength={500} />
        </Field>
      </ActionForm>
      {created ? (
        <section class="secret" aria-labelledby="share-h">
          <h2 id="share-h">Share this payment link</h2>
          <p>
            <a href={created.url} data-testid="share-link">
              {created.url}
            </a>
          </p>
          <button type="button" onClick={() => navigate(`/checkouts/${created.id}`)}>
            Open the checkout
          </button>
        </section>
      ) : null}
    </>
  );
}

/**
 * A refund, offered while something is refundable: without an address (the quick path) a link
 * where the payer enters theirs (shown once, valid 7 days); with one, an active address of the
 * merchant's payout address book on the checkout's chain (a payout with refundOf).
 */
function Refund({ checkout, money }: { checkout: Checkout; money: CheckoutMoney }) {
  const [amount, setAmount] = useState('');
  const [destination, setDestination] = useState('');
  const [link, setLink] = useState<string | null>(null);
  const action = useAction();
  const confirm = useConfirm();
  // Refunds are paid in what the payer sent: the checkout's asset and chain.
  const asset = money.asset ?? checkout.currency;
  return (
    <ActionForm
      action={action}
      id="refund-h"
      title="Refund"
      submit="Request refund"
      primary={false}
      after={
        <>
          {link ? (
            <p class="secret">
              Send the payer this link: <code>{link}</code>
            </p>
          ) : null}
          {confirm.dialog}
        </>
      }
      onSubmit={() =>
        confirm.ask({
          title: 'Refund the payer?',
          body: (
            <p>
              <Amount value={amount.trim()} unit={asset} />{' '}
              {destination.trim() ? (
                <>
                  to <code>{destination.trim()}</code>
                </>
              ) : (
                'through a link where the payer enters their address'
              )}
              . The operator approves it before it is sent.
            </p>
          ),
          confirm: 'Request refund',
          action: () =>
            action.run('Refund requested.', async () => {
              const r = await cpWrite<{ url?: string; link?: string }>(
                'POST',
                `/psp/hosted-pay/${checkout.id}/refunds`,
                { amount: amount.trim(), ...(destination.trim() ? { destination: destination.trim() } : {}) },
              );
              setLink(r.url ?? r.link ?? null);
            }),
        })
      }
    >
      <div class="grid">
        <Field label="Refund amount" hint={`in ${asset}, at most ${money.refundable}`}>
          <input required inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </Field>
        <Field
          label="Address-book address (optional)"
          hint={`empty (quickest): a link where the payer enters their address. Else an active address of your payout address book on ${money.chain ?? 'the chain'} (a new one cools off, 24 h by default)`}
        >
          <input maxLength={128} value={destination} onInput={(e) => setDestination(e.currentTarget.value)} />
        </Field>
      </div>
    </ActionForm>
  );
}
