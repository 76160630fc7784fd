import { minusDecimal } from '../../ui-kit/decimal.js';
import { Amount, ErrorNote, Loading, Table, time, useAsync } from '../../ui-kit/ui.js';
import { can, cp, type Session } from '../api.js';
import { t } from '../messages.js';
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
        <h1>{t('home.title')}</h1>
        {can(session, 'checkout:write') ? (
          <Link to="/checkouts/new" class="button primary">
            {t('home.newCheckout')}
          </Link>
        ) : null}
      </div>
      <ErrorNote error={summary.error} />
      {s === undefined ? (
        summary.error ? null : (
          <Loading what={t('home.summary')} />
        )
      ) : (
        <>
          <h2>{t('home.settled')}</h2>
          <div class="cards" data-testid="settled">
            <Volume label={t('home.today')} rows={s.settled.today} />
            <Volume label={t('home.month')} rows={s.settled.month} />
          </div>
          <h2>{t('home.balances')}</h2>
          <Table
            caption={t('home.balanceCaption')}
            rows={s.balances}
            rowKey={(b) => b.walletId}
            empty={t('home.noWallet')}
            columns={[
              { label: t('home.asset'), render: (b) => b.asset },
              { label: t('home.chain'), render: (b) => b.chain },
              // What can be paid out: the balance less what payouts in flight froze.
              {
                label: t('home.available'),
                num: true,
                render: (b) => <Amount value={minusDecimal(b.balance, b.freezeAmount)} unit={b.asset} />,
              },
              { label: t('home.balance'), num: true, render: (b) => <Amount value={b.balance} unit={b.asset} /> },
            ]}
          />
          <h2>{t('home.attention')}</h2>
          <Table
            caption={t('home.attentionCaption')}
            rows={s.attention}
            rowKey={(c) => c.id}
            empty={t('home.nothing')}
            columns={[
              { label: t('home.checkout'), render: (c) => <Link to={`/checkouts/${c.id}`}>{c.orderId ?? c.id}</Link> },
              { label: t('home.status'), render: (c) => <Status status={c.status} /> },
              { label: t('home.amount'), num: true, render: (c) => <Amount value={c.amount} unit={c.currency} /> },
              { label: t('home.created'), render: (c) => time(c.createdAt) },
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
