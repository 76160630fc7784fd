import { ErrorNote, Table, time, useAsync } from '../../ui-kit/ui.js';
import { cp, cpPage } from '../api.js';
import type { CheckoutAttempt } from '../views.js';

/** What happened around one checkout: its events and the webhook deliveries of them. */

export function CheckoutEvents({ id }: { id: string }) {
  // Every event about this checkout, however old: the list filters by the checkout (an index).
  const events = useAsync(
    () =>
      cpPage<{ id: string; type: string; createdAt: string; data: { object: { id?: string } } }>('/events', {
        checkoutId: id,
        limit: '200',
      }),
    [id],
  );
  const mine = events.data?.items ?? [];
  return (
    <>
      <h2>Events</h2>
      <ErrorNote error={events.error} />
      <Table
        caption="Events of this checkout"
        rows={mine}
        rowKey={(e) => e.id}
        empty="No event yet."
        columns={[
          { label: 'Type', render: (e) => <code>{e.type}</code> },
          { label: 'At', render: (e) => time(e.createdAt) },
          { label: 'Event', render: (e) => <code>{e.id}</code> },
        ]}
      />
    </>
  );
}

export function CheckoutDeliveries({ id }: { id: string }) {
  const deliveries = useAsync(
    () => cp<CheckoutAttempt[]>(`/psp/hosted-pay/${encodeURIComponent(id)}/webhook-deliveries`),
    [id],
  );
  return (
    <>
      <h2>Webhook deliveries</h2>
      <ErrorNote error={deliveries.error} />
      {deliveries.data === undefined ? null : (
        <Table
          caption="Webhook deliveries of this checkout's events"
          rows={deliveries.data}
          rowKey={(d) => d.id}
          empty="No delivery: no endpoint, or nothing sent yet."
          columns={[
            { label: 'Event', render: (d) => <code>{d.eventType}</code> },
            { label: 'At', render: (d) => time(d.attemptedAt) },
            {
              label: 'Answer',
              render: (d) => (d.succeeded ? `${d.statusCode} ok` : (d.error ?? `HTTP ${d.statusCode}`)),
            },
          ]}
        />
      )}
    </>
  );
}
