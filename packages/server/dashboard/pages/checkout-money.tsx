import { Amount, Table, time } from '../../ui-kit/ui.js';
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
      <dt>Received</dt>
      <dd data-testid="money-received">
        <Amount value={m.received} unit={unit} />
        {m.chain ? <span class="muted"> on {m.chain}</span> : null}
      </dd>
      <dt>Fee</dt>
      <dd data-testid="money-fee">{m.fee === null ? '— (not credited)' : <Amount value={m.fee} unit={unit} />}</dd>
      <dt>Net credited</dt>
      <dd data-testid="money-net">
        <Amount value={m.netCredited} unit={unit} />
      </dd>
      <dt>Refunded</dt>
      <dd data-testid="money-refunded">
        <Amount value={m.refunded} unit={unit} />
      </dd>
      <dt>Refundable</dt>
      <dd data-testid="money-refundable">
        <Amount value={m.refundable} unit={unit} />
      </dd>
    </>
  );
}

export function RefundList({ money: m }: { money: CheckoutMoney }) {
  return (
    <>
      <h2>Refunds</h2>
      <Table
        caption="Refunds of this checkout, oldest first"
        rows={m.refunds}
        rowKey={(r) => r.id}
        columns={[
          { label: 'Amount', num: true, render: (r) => <Amount value={r.amount} unit={m.asset ?? undefined} /> },
          { label: 'Status', render: (r) => <span class={`status s-${r.status}`}>{r.status.replace('_', ' ')}</span> },
          { label: 'To', render: (r) => <code class="clip">{r.destination}</code> },
          { label: 'Requested', render: (r) => time(r.createdAt) },
          {
            label: 'Payout',
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
export function timelineAmount(t: Checkout['timeline'][number], m: CheckoutMoney | undefined) {
  if (t.status !== 'refund_requested' || m === undefined) return null;
  const refund = m.refunds.find((r) => r.createdAt === t.at);
  if (refund === undefined) return null;
  return (
    <span data-testid="timeline-refund">
      <Amount value={refund.amount} unit={m.asset ?? undefined} />{' '}
      <span class="muted">({refund.status.replace('_', ' ')})</span>{' '}
    </span>
  );
}
