import { minusDecimal } from '../../ui-kit/decimal.js';
import { Amount, ErrorNote, Loading, Table, time, useAsync } from '../../ui-kit/ui.js';
import { can, cp, type Session } from '../api.js';
import { Link } from '../router.js';
import { Status } from './checkouts.js';
import type { CheckoutItem, Summary } from '../views.js';

/** Home: what the money is doing today (GET /api/v1/cp/summary). */
export function Home({ session }: { session: Session }) {
  const summary = useAsync(() => cp<Summary>('/summary'), []);
  const s = summary.data;
  return (
    <>
      <div class="page-head">
        <h1>Home</h1>
        {can(session, 'checkout:write') ? (
          <Link to="/checkouts/new" class="button primary">
            New checkout
          </Link>
        ) : null}
      </div>
      <ErrorNote error={summary.error} />
      {s === undefined ? (
        summary.error ? null : (
          <Loading what="the summary" />
        )
      ) : (
        <>
          <h2>Settled volume</h2>
          <div class="cards" data-testid="settled">
            <Volume label="Today" rows={s.settled.today} />
            <Volume label="This month" rows={s.settled.month} />
          </div>
          <h2>Balances</h2>
          <Table
            caption="Balance per wallet"
            rows={s.balances}
            rowKey={(b) => b.walletId}
            empty="No wallet yet: the operator creates them."
            columns={[
              { label: 'Asset', render: (b) => b.asset },
              { label: 'Chain', render: (b) => b.chain },
              // What can be paid out: the balance less what payouts in flight froze.
              {
                label: 'Available',
                num: true,
                render: (b) => <Amount value={minusDecimal(b.balance, b.freezeAmount)} unit={b.asset} />,
              },
              { label: 'Balance', num: true, render: (b) => <Amount value={b.balance} unit={b.asset} /> },
            ]}
          />
          <h2>Needs attention</h2>
          <Table
            caption="Checkouts that need attention"
            rows={s.attention}
            rowKey={(c) => c.id}
            empty="Nothing needs your attention."
            columns={[
              { label: 'Checkout', render: (c) => <Link to={`/checkouts/${c.id}`}>{c.orderId ?? c.id}</Link> },
              { label: 'Status', render: (c) => <Status status={c.status} /> },
              { label: 'Amount', num: true, render: (c) => <Amount value={c.amount} unit={c.currency} /> },
              { label: 'Created', render: (c) => time(c.createdAt) },
            ]}
          />
        </>
      )}
    </>
  );
}

function Volume({ label, rows }: { label: string; rows: { currency: string; amount: string }[] }) {
  return (
    <div class="card">
      <div class="card-label">{label}</div>
      <div class="card-value">
        {rows.length === 0 ? (
          <span class="num">0</span>
        ) : (
          rows.map((r) => (
            <div key={r.currency}>
              <Amount value={r.amount} unit={r.currency} />
            </div>
          ))
        )}
      </div>
    </div>
  );
}

export type { CheckoutItem };
