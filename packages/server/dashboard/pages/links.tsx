import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import { PagedTable } from '../../ui-kit/list-kit.js';
import {
  ActionStatus,
  Amount,
  ErrorNote,
  Field,
  Loading,
  time,
  useAction,
  useAsync,
  useConfirm,
  usePager,
} from '../../ui-kit/ui.js';
import { can, cp, cpPage, cpWrite, type Session } from '../api.js';
import { type LinkEdit, linkEditOf, linkPatchBody } from '../commerce-forms.js';
import { Link } from '../router.js';
import { CopyButton, CopyLink } from '../share.js';
import type { CheckoutItem, PaymentLink } from '../views.js';
import { Status } from './checkouts.js';

/**
 * Payment links (docs/payment-links.md): the list with each link's uses and state, one link with
 * its public address to copy, its settings to change, deactivate or reactivate, and its checkouts.
 */

/** The price as the payer meets it: fixed (or the sum of the lines), or typed within bounds. */
export function LinkPrice({ link }: { link: PaymentLink }) {
  if (link.amount !== null)
    return (
      <>
        <Amount value={link.amount} unit={link.currency} />
        {link.lineItems ? <span class="muted"> ({link.lineItems.length} items)</span> : null}
      </>
    );
  const { minAmount: min, maxAmount: max, currency } = link;
  return (
    <span>
      payer types it
      {min !== null || max !== null ? (
        <span class="muted">
          {' '}
          ({min !== null ? <Amount value={min} /> : 'any'} to {max !== null ? <Amount value={max} /> : 'any'} {currency}
          )
        </span>
      ) : (
        <span class="muted"> ({currency})</span>
      )}
    </span>
  );
}

const uses = (l: PaymentLink) => (l.maxUses === null ? l.uses : `${l.uses} of ${l.maxUses}`);

export function LinkList({ session }: { session: Session }) {
  const pager = usePager();
  const page = useAsync(() => cpPage<PaymentLink>('/payment-links', { cursor: pager.cursor }), [pager.cursor]);
  return (
    <>
      <div class="page-head">
        <h1>Payment links</h1>
        {can(session, 'links:write') ? (
          <Link to="/links/new" class="button primary">
            New payment link
          </Link>
        ) : null}
      </div>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what="payment links"
        pager={pager}
        caption="Payment links, newest first"
        empty="No payment link yet."
        columns={[
          { label: 'Name', render: (l) => <Link to={`/links/${encodeURIComponent(l.id)}`}>{l.name}</Link> },
          { label: 'Price', render: (l) => <LinkPrice link={l} /> },
          { label: 'Uses', num: true, render: uses },
          { label: 'State', render: (l) => <Status status={l.status} /> },
          { label: 'Created', render: (l) => time(l.createdAt) },
          { label: 'Share', render: (l) => <CopyButton url={l.url} what={l.name} /> },
        ]}
      />
    </>
  );
}

export function LinkDetail({ id, session }: { id: string; session: Session }) {
  const link = useAsync(() => cp<PaymentLink>(`/payment-links/${encodeURIComponent(id)}`), [id]);
  const l = link.data;
  const writes = can(session, 'links:write');
  if (l === undefined)
    return (
      <>
        <h1>Payment link</h1>
        {link.error ? <ErrorNote error={link.error} /> : <Loading what="the payment link" />}
      </>
    );
  return (
    <>
      <p>
        <Link to="/links">← Payment links</Link>
      </p>
      <h1>
        {l.name} <Status status={l.status} />
      </h1>
      <dl class="facts" data-testid="link-facts">
        <dt>Public page</dt>
        <dd>
          <CopyLink url={l.url} what={l.name} testId="link-url" />
        </dd>
        <dt>Price</dt>
        <dd>
          <LinkPrice link={l} />
        </dd>
        <dt>State</dt>
        <dd data-testid="link-status">{l.status.replace('_', ' ')}</dd>
        <dt>Uses</dt>
        <dd data-testid="link-uses">{uses(l)}</dd>
        <dt>Payer's email</dt>
        <dd>{l.collectEmail === 'none' ? 'not asked' : l.collectEmail}</dd>
        <dt>Expires</dt>
        <dd>{time(l.expiresAt)}</dd>
        <dt>Description</dt>
        <dd>{l.description ?? '—'}</dd>
        <dt>Id</dt>
        <dd>
          <code>{l.id}</code>
        </dd>
      </dl>
      {l.lineItems ? (
        <ul class="lines">
          {l.lineItems.map((i) => (
            <li key={i.name}>
              {i.quantity} × {i.name} at <Amount value={i.unitAmount} unit={l.currency} />
            </li>
          ))}
        </ul>
      ) : null}
      {writes ? <OnOff link={l} /> : null}
      {writes ? <EditLink link={l} /> : null}
      {can(session, 'checkout:read') ? <LinkCheckouts id={l.id} /> : null}
    </>
  );
}

/** Deactivate (the page answers 410 until reactivated) or reactivate. */
function OnOff({ link }: { link: PaymentLink }) {
  const action = useAction();
  const confirm = useConfirm();
  const set = (active: boolean) =>
    action.run(active ? 'Payment link reactivated.' : 'Payment link deactivated.', () =>
      cpWrite('PATCH', `/payment-links/${link.id}`, { active }),
    );
  return (
    <>
      <div class="actions">
        {link.active ? (
          <button
            type="button"
            class="danger"
            onClick={() =>
              confirm.ask({
                title: 'Deactivate this payment link?',
                body: (
                  <p>Its page tells payers it is unavailable until you reactivate it. Open checkouts stay payable.</p>
                ),
                confirm: 'Deactivate',
                danger: true,
                action: () => set(false),
              })
            }
          >
            Deactivate
          </button>
        ) : (
          <button type="button" onClick={() => set(true)}>
            Reactivate
          </button>
        )}
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </>
  );
}

function EditLink({ link }: { link: PaymentLink }) {
  const before = linkEditOf(link);
  const [form, setForm] = useState<LinkEdit>(before);
  const action = useAction();
  const set = (k: keyof LinkEdit) => (e: { currentTarget: HTMLInputElement }) =>
    setForm({ ...form, [k]: e.currentTarget.value });
  return (
    <ActionForm
      action={action}
      id="edit-link-h"
      title="Change the link"
      submit="Save changes"
      primary={false}
      onSubmit={() =>
        action.run('Payment link saved.', () =>
          cpWrite('PATCH', `/payment-links/${link.id}`, linkPatchBody(before, form)),
        )
      }
    >
      <p class="muted">The price is fixed once created. Checkouts already made keep what they were made with.</p>
      <div class="grid">
        <Field label="Name">
          <input required maxLength={200} value={form.name} onInput={set('name')} />
        </Field>
        <Field label="Max uses" hint="empty: unlimited">
          <input inputMode="numeric" value={form.maxUses} onInput={set('maxUses')} />
        </Field>
        <Field label="Expires (UTC)" hint="empty: never">
          <input type="datetime-local" value={form.expiresAt} onInput={set('expiresAt')} />
        </Field>
      </div>
      <Field label="Description">
        <input maxLength={500} value={form.description} onInput={set('description')} />
      </Field>
      <Field label="Success URL">
        <input type="url" maxLength={2048} value={form.successUrl} onInput={set('successUrl')} />
      </Field>
      <Field label="Cancel URL">
        <input type="url" maxLength={2048} value={form.cancelUrl} onInput={set('cancelUrl')} />
      </Field>
    </ActionForm>
  );
}

function LinkCheckouts({ id }: { id: string }) {
  const pager = usePager();
  const page = useAsync(
    () => cpPage<CheckoutItem>(`/payment-links/${encodeURIComponent(id)}/checkouts`, { cursor: pager.cursor }),
    [id, pager.cursor],
  );
  return (
    <>
      <h2>Checkouts of this link</h2>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what="checkouts"
        pager={pager}
        caption="Checkouts of this link, newest first"
        empty="No checkout yet."
        columns={[
          { label: 'Checkout', render: (c) => <Link to={`/checkouts/${c.id}`}>{c.id}</Link> },
          { label: 'Status', render: (c) => <Status status={c.status} /> },
          { label: 'Amount', num: true, render: (c) => <Amount value={c.amount} unit={c.currency} /> },
          { label: 'Created', render: (c) => time(c.createdAt) },
        ]}
      />
    </>
  );
}
