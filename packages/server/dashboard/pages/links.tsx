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
import { t } from '../messages.js';
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
        {link.lineItems ? <span class="muted">{t('links.itemCount', { count: link.lineItems.length })}</span> : null}
      </>
    );
  const { minAmount: min, maxAmount: max, currency } = link;
  return (
    <span>
      {t('links.payerTypes')}
      {min !== null || max !== null ? (
        <span class="muted">
          {' ('}
          {min !== null ? <Amount value={min} /> : t('links.any')}
          {t('links.to')}
          {max !== null ? <Amount value={max} /> : t('links.any')} {currency})
        </span>
      ) : (
        <span class="muted"> ({currency})</span>
      )}
    </span>
  );
}

const uses = (l: PaymentLink) => (l.maxUses === null ? l.uses : t('links.usesOf', { uses: l.uses, max: l.maxUses }));

/** Whether the payer's email is asked: not, optionally, or required. */
const emailAsked = (l: PaymentLink) => (l.collectEmail === 'none' ? t('links.notAsked') : l.collectEmail);

export function LinkList({ session }: { session: Session }) {
  const pager = usePager();
  const page = useAsync(() => cpPage<PaymentLink>('/payment-links', { cursor: pager.cursor }), [pager.cursor]);
  return (
    <>
      <div class="page-head">
        <h1>{t('links.title')}</h1>
        {can(session, 'links:write') ? (
          <Link to="/links/new" class="button primary">
            {t('links.new')}
          </Link>
        ) : null}
      </div>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what={t('links.what')}
        pager={pager}
        caption={t('links.caption')}
        empty={t('links.empty')}
        columns={[
          { label: t('links.name'), render: (l) => <Link to={`/links/${encodeURIComponent(l.id)}`}>{l.name}</Link> },
          { label: t('links.price'), render: (l) => <LinkPrice link={l} /> },
          { label: t('links.uses'), num: true, render: uses },
          { label: t('links.state'), render: (l) => <Status status={l.status} /> },
          { label: t('links.created'), render: (l) => time(l.createdAt) },
          { label: t('links.share'), render: (l) => <CopyButton url={l.url} what={l.name} /> },
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
        <h1>{t('links.one')}</h1>
        {link.error ? <ErrorNote error={link.error} /> : <Loading what={t('links.whatOne')} />}
      </>
    );
  return (
    <>
      <p>
        <Link to="/links">{t('links.back')}</Link>
      </p>
      <h1>
        {l.name} <Status status={l.status} />
      </h1>
      <dl class="facts" data-testid="link-facts">
        <dt>{t('links.publicPage')}</dt>
        <dd>
          <CopyLink url={l.url} what={l.name} testId="link-url" />
        </dd>
        <dt>{t('links.price')}</dt>
        <dd>
          <LinkPrice link={l} />
        </dd>
        <dt>{t('links.state')}</dt>
        <dd data-testid="link-status">{l.status.replace('_', ' ')}</dd>
        <dt>{t('links.uses')}</dt>
        <dd data-testid="link-uses">{uses(l)}</dd>
        <dt>{t('links.payerEmail')}</dt>
        <dd>{emailAsked(l)}</dd>
        <dt>{t('links.expires')}</dt>
        <dd>{time(l.expiresAt)}</dd>
        <dt>{t('links.description')}</dt>
        <dd>{l.description ?? '—'}</dd>
        <dt>{t('links.id')}</dt>
        <dd>
          <code>{l.id}</code>
        </dd>
      </dl>
      {l.lineItems ? (
        <ul class="lines">
          {l.lineItems.map((i) => (
            <li key={i.name}>
              {t('links.lineItem', { quantity: i.quantity, name: i.name })}
              <Amount value={i.unitAmount} unit={l.currency} />
            </li>
          ))}
        </ul>
      ) : null}
      {writes ? <OnOff link={l} /> : null}
      {writes ? <EditLink link={l} key={l.updatedAt} /> : null}
      {can(session, 'checkout:read') ? <LinkCheckouts id={l.id} /> : null}
    </>
  );
}

/** Deactivate (the page answers 410 until reactivated) or reactivate. */
function OnOff({ link }: { link: PaymentLink }) {
  const action = useAction();
  const confirm = useConfirm();
  const set = (active: boolean) =>
    action.run(active ? t('links.reactivated') : t('links.deactivated'), () =>
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
                title: t('links.deactivateTitle'),
                body: <p>{t('links.deactivateBody')}</p>,
                confirm: t('links.deactivate'),
                danger: true,
                action: () => set(false),
              })
            }
          >
            {t('links.deactivate')}
          </button>
        ) : (
          <button type="button" onClick={() => set(true)}>
            {t('links.reactivate')}
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
      title={t('links.editTitle')}
      submit={t('links.save')}
      primary={false}
      onSubmit={() =>
        action.run(t('links.saved'), () => cpWrite('PATCH', `/payment-links/${link.id}`, linkPatchBody(before, form)))
      }
    >
      <p class="muted">{t('links.editNote')}</p>
      <div class="grid">
        <Field label={t('links.name')}>
          <input required maxLength={200} value={form.name} onInput={set('name')} />
        </Field>
        <Field label={t('links.maxUses')} hint={t('links.maxUsesHint')}>
          <input inputMode="numeric" value={form.maxUses} onInput={set('maxUses')} />
        </Field>
        <Field label={t('links.expiresUtc')} hint={t('links.expiresHint')}>
          <input type="datetime-local" value={form.expiresAt} onInput={set('expiresAt')} />
        </Field>
      </div>
      <Field label={t('links.description')}>
        <input maxLength={500} value={form.description} onInput={set('description')} />
      </Field>
      <Field label={t('links.successUrl')}>
        <input type="url" maxLength={2048} value={form.successUrl} onInput={set('successUrl')} />
      </Field>
      <Field label={t('links.cancelUrl')}>
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
      <h2>{t('links.checkouts')}</h2>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what={t('links.checkoutsWhat')}
        pager={pager}
        caption={t('links.checkoutsCaption')}
        empty={t('links.checkoutsEmpty')}
        columns={[
          { label: t('links.checkout'), render: (c) => <Link to={`/checkouts/${c.id}`}>{c.id}</Link> },
          { label: t('links.status'), render: (c) => <Status status={c.status} /> },
          { label: t('links.amount'), num: true, render: (c) => <Amount value={c.amount} unit={c.currency} /> },
          { label: t('links.created'), render: (c) => time(c.createdAt) },
        ]}
      />
    </>
  );
}
