import { FilterForm, FilterInput, PagedTable, useFilters } from '../../ui-kit/list-kit.js';
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
import { CopyLink } from '../share.js';
import type { Invoice } from '../views.js';
import { Status } from './checkouts.js';
import { EditDraft } from './invoice-form.js';

/**
 * Invoices (docs/invoices.md): the list by status, a draft made and edited, then finalized, sent,
 * shared (its /i/{token} page and PDF), voided or marked uncollectible. The page follows the
 * event stream like every screen: a payment on the invoice's page moves its status and amounts
 * here without a reload.
 */

// The protocol's INVOICE_STATUS_VALUES (the bundle imports no protocol code, only its types).
const STATUSES = ['', 'draft', 'open', 'partially_paid', 'paid', 'void', 'uncollectible'];

const customerOf = (i: Invoice) => i.customer.name ?? i.customer.email ?? '—';
const titleOf = (i: Invoice) => i.number ?? t('invoices.draftTitle', { id: i.id.slice(0, 12) });

export function InvoiceList({ session }: { session: Session }) {
  const pager = usePager();
  const filters = useFilters({ status: '', customerEmail: '' });
  const f = filters.applied;
  const page = useAsync(
    () => cpPage<Invoice>('/invoices', { status: f.status, customerEmail: f.customerEmail, cursor: pager.cursor }),
    [f, pager.cursor],
  );
  return (
    <>
      <div class="page-head">
        <h1>{t('invoices.title')}</h1>
        {can(session, 'invoices:write') ? (
          <Link to="/invoices/new" class="button primary">
            {t('invoices.newInvoice')}
          </Link>
        ) : null}
      </div>
      <FilterForm filters={filters} pager={pager}>
        <Field label={t('invoices.status')}>
          <select value={filters.draft.status} onChange={(e) => filters.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? t('invoices.anyStatus') : s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={filters} name="customerEmail" label={t('invoices.customerEmail')} />
      </FilterForm>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what={t('invoices.what')}
        pager={pager}
        caption={t('invoices.caption')}
        empty={t('invoices.noMatch')}
        columns={[
          {
            label: t('invoices.invoice'),
            render: (i) => <Link to={`/invoices/${encodeURIComponent(i.id)}`}>{titleOf(i)}</Link>,
          },
          { label: t('invoices.customer'), render: customerOf },
          { label: t('invoices.status'), render: (i) => <Status status={i.status} /> },
          { label: t('invoices.total'), num: true, render: (i) => <Amount value={i.total} unit={i.currency} /> },
          { label: t('invoices.due'), num: true, render: (i) => <Amount value={i.amountDue} unit={i.currency} /> },
          { label: t('invoices.dueDate'), render: (i) => time(i.dueAt) },
        ]}
      />
    </>
  );
}

export function InvoiceDetail({ id, session }: { id: string; session: Session }) {
  const invoice = useAsync(() => cp<Invoice>(`/invoices/${encodeURIComponent(id)}`), [id]);
  const i = invoice.data;
  const writes = can(session, 'invoices:write');
  const editable = writes && i?.status === 'draft';
  if (i === undefined)
    return (
      <>
        <h1>{t('invoices.invoice')}</h1>
        {invoice.error ? <ErrorNote error={invoice.error} /> : <Loading what={t('invoices.loading')} />}
      </>
    );
  return (
    <>
      <p>
        <Link to="/invoices">{t('invoices.back')}</Link>
      </p>
      <h1>
        {i.number ? t('invoices.numbered', { number: i.number }) : t('invoices.draftInvoice')}{' '}
        <Status status={i.status} />
      </h1>
      <ErrorNote error={invoice.error} />
      <InvoiceFacts invoice={i} />
      <Table
        caption={t('invoices.lines')}
        rows={i.lineItems.map((l, n) => ({ ...l, n: String(n) }))}
        rowKey={(l) => l.n}
        empty={t('invoices.noLine')}
        columns={[
          { label: t('invoices.description'), render: (l) => l.description },
          { label: t('invoices.quantity'), num: true, render: (l) => <Amount value={l.quantity} /> },
          { label: t('invoices.unitPrice'), num: true, render: (l) => <Amount value={l.unitAmount} /> },
          {
            label: t('invoices.taxPercent'),
            num: true,
            render: (l) => (l.taxPercent === null ? '—' : <Amount value={l.taxPercent} />),
          },
          { label: t('invoices.amount'), num: true, render: (l) => <Amount value={l.amount} unit={i.currency} /> },
          { label: t('invoices.tax'), num: true, render: (l) => <Amount value={l.tax} unit={i.currency} /> },
        ]}
      />
      {i.url ? <Share invoice={i} /> : null}
      {writes ? <Moves invoice={i} /> : null}
      {editable ? <EditDraft invoice={i} key={i.updatedAt} /> : null}
      {i.checkoutIds.length > 0 ? (
        <>
          <h2>{t('invoices.checkouts')}</h2>
          <ul class="ids" data-testid="invoice-checkouts">
            {i.checkoutIds.map((c) => (
              <li key={c}>
                <Link to={`/checkouts/${encodeURIComponent(c)}`}>{c}</Link>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

function InvoiceFacts({ invoice: i }: { invoice: Invoice }) {
  return (
    <dl class="facts" data-testid="invoice-facts">
      <dt>{t('invoices.status')}</dt>
      <dd data-testid="invoice-status">{i.status.replace('_', ' ')}</dd>
      <dt>{t('invoices.customer')}</dt>
      <dd>
        {i.customer.name ?? '—'}
        {i.customer.email ? ` <${i.customer.email}>` : null}
      </dd>
      <dt>{t('invoices.subtotal')}</dt>
      <dd>
        <Amount value={i.subtotal} unit={i.currency} />
      </dd>
      <dt>{t('invoices.tax')}</dt>
      <dd>
        <Amount value={i.tax} unit={i.currency} />
      </dd>
      <dt>{t('invoices.total')}</dt>
      <dd data-testid="invoice-total">
        <Amount value={i.total} unit={i.currency} />
      </dd>
      <dt>{t('invoices.paid')}</dt>
      <dd data-testid="invoice-paid">
        <Amount value={i.amountPaid} unit={i.currency} />
      </dd>
      <dt>{t('invoices.due')}</dt>
      <dd data-testid="invoice-due">
        <Amount value={i.amountDue} unit={i.currency} />
      </dd>
      <dt>{t('invoices.dueDate')}</dt>
      <dd>{time(i.dueAt)}</dd>
      <dt>{t('invoices.memo')}</dt>
      <dd>{i.memo ?? '—'}</dd>
      <dt>{t('invoices.finalized')}</dt>
      <dd>{time(i.finalizedAt)}</dd>
      <dt>{t('invoices.lastSent')}</dt>
      <dd>{time(i.sentAt)}</dd>
      <dt>{t('invoices.paidInFull')}</dt>
      <dd>{time(i.paidAt)}</dd>
      <dt>{t('invoices.id')}</dt>
      <dd>
        <code>{i.id}</code>
      </dd>
    </dl>
  );
}

/** The public page to copy and open, and the PDF (the merchant route: the session's cookie, a plain download). */
function Share({ invoice: i }: { invoice: Invoice }) {
  return (
    <section aria-labelledby="share-h">
      <h2 id="share-h">{t('invoices.share')}</h2>
      <p>
        <CopyLink url={i.url!} what={titleOf(i)} testId="invoice-url" />
      </p>
      <p>
        <a href={`/api/v1/cp/invoices/${encodeURIComponent(i.id)}/pdf`} data-testid="invoice-pdf" download>
          {t('invoices.pdf')}
        </a>
      </p>
    </section>
  );
}

type Move = 'finalize' | 'void' | 'mark-uncollectible' | 'send' | 'delete';

/** The moves the invoice's state allows (the server refuses any other with 409 INVOICE_STATE_CONFLICT). */
function movesOf(status: string): Move[] {
  switch (status) {
    case 'draft':
      return ['finalize', 'delete'];
    case 'open':
      return ['send', 'void', 'mark-uncollectible'];
    case 'partially_paid':
      return ['send', 'mark-uncollectible'];
    case 'uncollectible':
    case 'paid':
      return ['send'];
    default:
      return [];
  }
}

const MOVES: Record<Move, { label: string; done: string; ask?: (i: Invoice) => string; danger?: boolean }> = {
  finalize: {
    label: t('invoices.finalize'),
    done: t('invoices.finalizeDone'),
    ask: () => t('invoices.finalizeAsk'),
  },
  send: { label: t('invoices.send'), done: t('invoices.sendDone') },
  void: {
    label: t('invoices.void'),
    done: t('invoices.voidDone'),
    ask: (i) => t('invoices.voidAsk', { number: String(i.number) }),
    danger: true,
  },
  'mark-uncollectible': {
    label: t('invoices.uncollectible'),
    done: t('invoices.uncollectibleDone'),
    ask: () => t('invoices.uncollectibleAsk'),
  },
  delete: {
    label: t('invoices.delete'),
    done: t('invoices.deleteDone'),
    ask: () => t('invoices.deleteAsk'),
    danger: true,
  },
};

function Moves({ invoice: i }: { invoice: Invoice }) {
  const action = useAction();
  const confirm = useConfirm();
  const run = (m: Move) =>
    action.run(MOVES[m].done, async () => {
      if (m === 'delete') {
        await cpWrite('DELETE', `/invoices/${i.id}`);
        navigate('/invoices');
      } else await cpWrite('POST', `/invoices/${i.id}/${m}`);
    });
  const moves = movesOf(i.status).filter((m) => m !== 'send' || i.customer.email !== null);
  if (moves.length === 0) return <ActionStatus action={action} />;
  return (
    <>
      <div class="actions">
        {moves.map((m) => {
          const { label, ask, danger } = MOVES[m];
          return (
            <button
              type="button"
              key={m}
              class={danger ? 'danger' : m === 'finalize' ? 'primary' : undefined}
              disabled={action.busy}
              onClick={() =>
                ask
                  ? confirm.ask({
                      title: t('invoices.confirmTitle', { label }),
                      body: <p>{ask(i)}</p>,
                      confirm: label,
                      danger: danger === true,
                      action: () => run(m),
                    })
                  : run(m)
              }
            >
              {label}
            </button>
          );
        })}
      </div>
      <ActionStatus action={action} />
      {confirm.dialog}
    </>
  );
}
