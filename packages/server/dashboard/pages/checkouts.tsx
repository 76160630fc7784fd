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
import { t } from '../messages.js';
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
        <h1>{t('checkouts.title')}</h1>
        {can(session, 'checkout:write') ? (
          <Link to="/checkouts/new" class="button primary">
            {t('checkouts.newCheckout')}
          </Link>
        ) : null}
      </div>
      <FilterForm filters={filters} pager={pager}>
        <FilterInput filters={filters} name="orderId" label={t('checkouts.orderId')} />
        <Field label={t('checkouts.status')}>
          <select value={filters.draft.status} onChange={(e) => filters.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? t('checkouts.anyStatus') : s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={filters} name="createdFrom" label={t('checkouts.createdFrom')} date />
        <FilterInput filters={filters} name="createdTo" label={t('checkouts.createdBefore')} date />
      </FilterForm>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what={t('checkouts.what')}
        pager={pager}
        caption={t('checkouts.caption')}
        empty={t('checkouts.noMatch')}
        columns={[
          {
            label: t('checkouts.checkout'),
            render: (c) => <Link to={`/checkouts/${c.id}`}>{c.orderId ?? shortId(c.id)}</Link>,
          },
          { label: t('checkouts.status'), render: (c) => <Status status={c.status} /> },
          { label: t('checkouts.amount'), num: true, render: (c) => <Amount value={c.amount} unit={c.currency} /> },
          { label: t('checkouts.created'), render: (c) => time(c.createdAt) },
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
  const cancellable = c?.status === 'open' && can(session, 'checkout:write');
  if (c === undefined)
    return (
      <>
        <h1>{t('checkouts.checkout')}</h1>
        {checkout.error ? <ErrorNote error={checkout.error} /> : <Loading what={t('checkouts.loading')} />}
      </>
    );
  return (
    <>
      <p>
        <Link to="/checkouts">{t('checkouts.back')}</Link>
      </p>
      <h1>
        {t('checkouts.checkout')} {c.orderId ? t('checkouts.forOrder', { orderId: c.orderId }) : null}{' '}
        <Status status={c.status} />
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
        <dt>{t('checkouts.id')}</dt>
        <dd>
          <code>{c.id}</code>
        </dd>
        <dt>{t('checkouts.amount')}</dt>
        <dd>
          <Amount value={c.amount} unit={c.currency} />
        </dd>
        <dt>{t('checkouts.status')}</dt>
        <dd data-testid="checkout-status">{c.status}</dd>
        <dt>{t('checkouts.paymentPage')}</dt>
        <dd>
          <a href={c.url} data-testid="pay-link">
            {c.url}
          </a>
        </dd>
        <dt>{t('checkouts.description')}</dt>
        <dd>{c.description ?? '—'}</dd>
        <dt>{t('checkouts.expires')}</dt>
        <dd>{time(c.expiresAt)}</dd>
        {m ? <MoneyFacts money={m} /> : null}
      </dl>
      <ErrorNote error={money.error} />
      {cancellable ? (
        <div class="actions">
          <button
            type="button"
            class="danger"
            onClick={() =>
              confirm.ask({
                title: t('checkouts.cancelTitle'),
                body: <p>{t('checkouts.cancelBody')}</p>,
                confirm: t('checkouts.cancel'),
                danger: true,
                action: () =>
                  action.run(t('checkouts.canceled'), () => cpWrite('POST', `/psp/hosted-pay/${c.id}/cancel`)),
              })
            }
          >
            {t('checkouts.cancel')}
          </button>
        </div>
      ) : null}
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>{t('checkouts.paymentOptions')}</h2>
      <Table
        caption={t('checkouts.paymentOptions')}
        rows={c.paymentOptions}
        rowKey={(o) => `${o.asset}-${o.chain}`}
        columns={[
          {
            label: t('checkouts.asset'),
            render: (o) => t('checkouts.assetOnChain', { asset: o.asset, chain: o.chain }),
          },
          { label: t('checkouts.due'), num: true, render: (o) => <Amount value={o.amountDue} unit={o.asset} /> },
          { label: t('checkouts.address'), render: (o) => <code class="clip">{o.address}</code> },
        ]}
      />
      <h2>{t('checkouts.payments')}</h2>
      <Table
        caption={t('checkouts.payments')}
        rows={c.payments}
        rowKey={(p) => p.id}
        empty={t('checkouts.noPayment')}
        columns={[
          { label: t('checkouts.amount'), num: true, render: (p) => <Amount value={p.amount} unit={p.asset} /> },
          { label: t('checkouts.confirmations'), num: true, render: (p) => String(p.confirmations) },
          { label: t('checkouts.transaction'), render: (p) => <code class="clip">{p.txHash}</code> },
        ]}
      />
      <h2>{t('checkouts.timeline')}</h2>
      <ol class="timeline" data-testid="timeline">
        {c.timeline.map((step) => (
          <li key={`${step.at}-${step.status}`}>
            {time(step.at)} <Status status={step.status} /> {timelineAmount(step, m)}
            {step.reason ? <span class="muted">{step.reason}</span> : null}
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
        <h1>{t('checkouts.newCheckout')}</h1>
        <p>{t('checkouts.cannotCreate', { role: session.role })}</p>
      </>
    );
  return (
    <>
      <h1>{t('checkouts.newCheckout')}</h1>
      <p class="muted">{t('checkouts.intro')}</p>
      <ActionForm
        action={action}
        submit={t('checkouts.create')}
        onSubmit={() =>
          action.run(t('checkouts.createdDone'), async () => {
            const body: Record<string, string> = { amount: form.amount.trim(), currency: form.currency.trim() };
            if (form.orderId.trim()) body.orderId = form.orderId.trim();
            if (form.description.trim()) body.description = form.description.trim();
            setCreated(await cpWrite<Checkout>('POST', '/psp/hosted-pay', body));
          })
        }
      >
        <div class="grid">
          <Field label={t('checkouts.amount')}>
            <input required inputMode="decimal" value={form.amount} onInput={set('amount')} />
          </Field>
          <Field label={t('checkouts.currency')} hint={t('checkouts.currencyHint')}>
            <input required value={form.currency} onInput={set('currency')} />
          </Field>
          <Field label={t('checkouts.orderIdOptional')}>
            <input value={form.orderId} onInput={set('orderId')} maxLength={64} />
          </Field>
        </div>
        <Field label={t('checkouts.descriptionOptional')}>
          <input value={form.description} onInput={set('description')} maxLength={500} />
        </Field>
      </ActionForm>
      {created ? (
        <section class="secret" aria-labelledby="share-h">
          <h2 id="share-h">{t('checkouts.share')}</h2>
          <p>
            <a href={created.url} data-testid="share-link">
              {created.url}
            </a>
          </p>
          <button type="button" onClick={() => navigate(`/checkouts/${created.id}`)}>
            {t('checkouts.open')}
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
      title={t('checkouts.refund')}
      submit={t('checkouts.requestRefund')}
      primary={false}
      after={
        <>
          {link ? (
            <p class="secret">
              {t('checkouts.sendLink')} <code>{link}</code>
            </p>
          ) : null}
          {confirm.dialog}
        </>
      }
      onSubmit={() =>
        confirm.ask({
          title: t('checkouts.refundTitle'),
          body: (
            <p>
              <Amount value={amount.trim()} unit={asset} />{' '}
              {destination.trim() ? (
                <>
                  {t('checkouts.refundTo')} <code>{destination.trim()}</code>
                </>
              ) : (
                t('checkouts.refundThroughLink')
              )}
              . {t('checkouts.refundApproval')}
            </p>
          ),
          confirm: t('checkouts.requestRefund'),
          action: () =>
            action.run(t('checkouts.refundRequested'), async () => {
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
        <Field
          label={t('checkouts.refundAmount')}
          hint={t('checkouts.refundAmountHint', { asset, max: money.refundable })}
        >
          <input required inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </Field>
        <Field
          label={t('checkouts.addressBook')}
          hint={t('checkouts.addressBookHint', { chain: money.chain ?? t('checkouts.theChain') })}
        >
          <input maxLength={128} value={destination} onInput={(e) => setDestination(e.currentTarget.value)} />
        </Field>
      </div>
    </ActionForm>
  );
}
