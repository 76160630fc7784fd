import { Amount, Table, time } from '../../ui-kit/ui.js';
import { t } from '../messages.js';
import { Link } from '../router.js';
import type { Checkout, CheckoutMoney } from '../views.js';

/**
 * A checkout's money on its page (GET …/hosted-pay/{id}/refunds): received, the fee, what the
 * wallet was credited, what refunds took and what is still refundable; each refund with its
 * status; and the amount beside each `refund_requested` entry of the timeline.
 */
export function MoneyFacts({ money: m }: { money: CheckoutMoney }) {
  const unit = m.asset ?? undefined;
  return (
    <>
      <dt>{t('checkout-money.received')}</dt>
      <dd data-testid="money-received">
        <Amount value={m.received} unit={unit} />
        {m.chain ? <span class="muted"> {t('checkout-money.onChain', { chain: m.chain })}</span> : null}
      </dd>
      <dt>{t('checkout-money.fee')}</dt>
      <dd data-testid="money-fee">
        {m.fee === null ? t('checkout-money.notCredited') : <Amount value={m.fee} unit={unit} />}
      </dd>
      <dt>{t('checkout-money.netCredited')}</dt>
      <dd data-testid="money-net">
        <Amount value={m.netCredited} unit={unit} />
      </dd>
      <dt>{t('checkout-money.refunded')}</dt>
      <dd data-testid="money-refunded">
        <Amount value={m.refunded} unit={unit} />
      </dd>
      <dt>{t('checkout-money.refundable')}</dt>
      <dd data-testid="money-refundable">
        <Amount value={m.refundable} unit={unit} />
      </dd>
    </>
  );
}

export function RefundList({ money: m }: { money: CheckoutMoney }) {
  return (
    <>
      <h2>{t('checkout-money.refunds')}</h2>
      <Table
        caption={t('checkout-money.refundsCaption')}
        rows={m.refunds}
        rowKey={(r) => r.id}
        columns={[
          {
            label: t('checkout-money.amount'),
            num: true,
            render: (r) => <Amount value={r.amount} unit={m.asset ?? undefined} />,
          },
          {
            label: t('checkout-money.status'),
            render: (r) => <span class={`status s-${r.status}`}>{r.status.replace('_', ' ')}</span>,
          },
          { label: t('checkout-money.to'), render: (r) => <code class="clip">{r.destination}</code> },
          { label: t('checkout-money.requested'), render: (r) => time(r.createdAt) },
          {
            label: t('checkout-money.payout'),
            render: (r) => (
              <Link to={`/payouts/${encodeURIComponent(r.id)}`}>
                <code>{r.id}</code>
              </Link>
            ),
          },
        ]}
      />
    </>
  );
}

/** The refund's amount beside its timeline entry: both are written with the same `at`. */
export function timelineAmount(entry: Checkout['timeline'][number], m: CheckoutMoney | undefined) {
  if (entry.status !== 'refund_requested' || m === undefined) return null;
  const refund = m.refunds.find((r) => r.createdAt === entry.at);
  if (refund === undefined) return null;
  return (
    <span data-testid="timeline-refund">
      <Amount value={refund.amount} unit={m.asset ?? undefined} />{' '}
      <span class="muted">({refund.status.replace('_', ' ')})</span>{' '}
    </span>
  );
}
