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
const titleOf = (i: Invoice) => i.number ?? `Draft ${i.id.slice(0, 12)}…`;

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
        <h1>Invoices</h1>
        {can(session, 'invoices:write') ? (
          <Link to="/invoices/new" class="button primary">
            New invoice
          </Link>
        ) : null}
      </div>
      <FilterForm filters={filters} pager={pager}>
        <Field label="Status">
          <select value={filters.draft.status} onChange={(e) => filters.set('status', e.currentTarget.value)}>
            {STATUSES.map((s) => (
              <option value={s} key={s}>
                {s === '' ? 'any' : s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <FilterInput filters={filters} name="customerEmail" label="Customer email" />
      </FilterForm>
      <ErrorNote error={page.error} />
      <PagedTable
        page={page.data}
        what="invoices"
        pager={pager}
        caption="Invoices, newest first"
        empty="No invoice matches."
        columns={[
          { label: 'Invoice', render: (i) => <Link to={`/invoices/${encodeURIComponent(i.id)}`}>{titleOf(i)}</Link> },
          { label: 'Customer', render: customerOf },
          { label: 'Status', render: (i) => <Status status={i.status} /> },
          { label: 'Total', num: true, render: (i) => <Amount value={i.total} unit={i.currency} /> },
          { label: 'Due', num: true, render: (i) => <Amount value={i.amountDue} unit={i.currency} /> },
          { label: 'Due date', render: (i) => time(i.dueAt) },
        ]}
      />
    </>
  );
}

export function InvoiceDetail({ id, session }: { id: string; session: Session }) {
  const invoice = useAsync(() => cp<Invoice>(`/invoices/${encodeURIComponent(id)}`), [id]);
  const i = invoice.data;
  const writes = can(session, 'invoices:write');
  if (i === undefined)
    return (
      <>
        <h1>Invoice</h1>
        {invoice.error ? <ErrorNote error={invoice.error} /> : <Loading what="the invoice" />}
      </>
    );
  return (
    <>
      <p>
        <Link to="/invoices">← Invoices</Link>
      </p>
      <h1>
        {i.number ? `Invoice ${i.number}` : 'Draft invoice'} <Status status={i.status} />
      </h1>
      <ErrorNote error={invoice.error} />
      <InvoiceFacts invoice={i} />
      <Table
        caption="Lines"
        rows={i.lineItems.map((l, n) => ({ ...l, n: String(n) }))}
        rowKey={(l) => l.n}
        empty="No line yet: add one before finalizing."
        columns={[
          { label: 'Description', render: (l) => l.description },
          { label: 'Quantity', num: true, render: (l) => <Amount value={l.quantity} /> },
          { label: 'Unit price', num: true, render: (l) => <Amount value={l.unitAmount} /> },
          { label: 'Tax %', num: true, render: (l) => (l.taxPercent === null ? '—' : <Amount value={l.taxPercent} />) },
          { label: 'Amount', num: true, render: (l) => <Amount value={l.amount} unit={i.currency} /> },
          { label: 'Tax', num: true, render: (l) => <Amount value={l.tax} unit={i.currency} /> },
        ]}
      />
      {i.url ? <Share invoice={i} /> : null}
      {writes ? <Moves invoice={i} /> : null}
      {writes && i.status === 'draft' ? <EditDraft invoice={i} key={i.updatedAt} /> : null}
      {i.checkoutIds.length > 0 ? (
        <>
          <h2>Checkouts</h2>
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
      <dt>Status</dt>
      <dd data-testid="invoice-status">{i.status.replace('_', ' ')}</dd>
      <dt>Customer</dt>
      <dd>
        {i.customer.name ?? '—'}
        {i.customer.email ? <> &lt;{i.customer.email}&gt;</> : null}
      </dd>
      <dt>Subtotal</dt>
      <dd>
        <Amount value={i.subtotal} unit={i.currency} />
      </dd>
      <dt>Tax</dt>
      <dd>
        <Amount value={i.tax} unit={i.currency} />
      </dd>
      <dt>Total</dt>
      <dd data-testid="invoice-total">
        <Amount value={i.total} unit={i.currency} />
      </dd>
      <dt>Paid</dt>
      <dd data-testid="invoice-paid">
        <Amount value={i.amountPaid} unit={i.currency} />
      </dd>
      <dt>Due</dt>
      <dd data-testid="invoice-due">
        <Amount value={i.amountDue} unit={i.currency} />
      </dd>
      <dt>Due date</dt>
      <dd>{time(i.dueAt)}</dd>
      <dt>Memo</dt>
      <dd>{i.memo ?? '—'}</dd>
      <dt>Finalized</dt>
      <dd>{time(i.finalizedAt)}</dd>
      <dt>Last sent</dt>
      <dd>{time(i.sentAt)}</dd>
      <dt>Paid in full</dt>
      <dd>{time(i.paidAt)}</dd>
      <dt>Id</dt>
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
      <h2 id="share-h">Share</h2>
      <p>
        <CopyLink url={i.url!} what={titleOf(i)} testId="invoice-url" />
      </p>
      <p>
        <a href={`/api/v1/cp/invoices/${encodeURIComponent(i.id)}/pdf`} data-testid="invoice-pdf" download>
          Download the PDF
        </a>
      </p>
    </section>
  );
}

type Move = 'finalize' | 'void' | 'mark-uncollectible' | 'send' | 'delete';

/** The moves the invoice's state allows (the server refuses any other with 409 INVOICE_STATE_CONFLICT). */
export function movesOf(status: string): Move[] {
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
    label: 'Finalize',
    done: 'Invoice finalized.',
    ask: () => 'It takes the next number and its page can be paid; its lines can no longer change.',
  },
  send: { label: 'Send to the customer', done: 'Invoice sent.' },
  void: {
    label: 'Void',
    done: 'Invoice voided.',
    ask: (i) => `${i.number} keeps its number; its page says it is void and its open checkouts are canceled.`,
    danger: true,
  },
  'mark-uncollectible': {
    label: 'Mark uncollectible',
    done: 'Invoice marked uncollectible.',
    ask: () => 'It can still be paid on its page; paid in full it becomes paid.',
  },
  delete: { label: 'Delete draft', done: 'Draft deleted.', ask: () => 'The draft is gone for good.', danger: true },
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
                      title: `${label}?`,
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
