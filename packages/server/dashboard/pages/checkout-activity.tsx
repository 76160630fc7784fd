import { ErrorNote, Table, time, useAsync } from '../../ui-kit/ui.js';
import { cp, cpPage } from '../api.js';
import { t } from '../messages.js';
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
      <h2>{t('checkout-activity.events')}</h2>
      <ErrorNote error={events.error} />
      <Table
        caption={t('checkout-activity.eventsCaption')}
        rows={mine}
        rowKey={(e) => e.id}
        empty={t('checkout-activity.noEvent')}
        columns={[
          { label: t('checkout-activity.type'), render: (e) => <code>{e.type}</code> },
          { label: t('checkout-activity.at'), render: (e) => time(e.createdAt) },
          { label: t('checkout-activity.event'), render: (e) => <code>{e.id}</code> },
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
      <h2>{t('checkout-activity.deliveries')}</h2>
      <ErrorNote error={deliveries.error} />
      {deliveries.data === undefined ? null : (
        <Table
          caption={t('checkout-activity.deliveriesCaption')}
          rows={deliveries.data}
          rowKey={(d) => d.id}
          empty={t('checkout-activity.noDelivery')}
          columns={[
            { label: t('checkout-activity.event'), render: (d) => <code>{d.eventType}</code> },
            { label: t('checkout-activity.at'), render: (d) => time(d.attemptedAt) },
            {
              label: t('checkout-activity.answer'),
              render: (d) =>
                d.succeeded
                  ? t('checkout-activity.answerOk', { status: String(d.statusCode) })
                  : (d.error ?? `HTTP ${d.statusCode}`),
            },
          ]}
        />
      )}
    </>
  );
}
