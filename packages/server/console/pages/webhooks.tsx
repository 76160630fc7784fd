import { useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import type { Page, WebhookAttempt, WebhookEndpoint } from '../views.js';
import {
  ActionStatus,
  ErrorNote,
  Field,
  Loading,
  Pager,
  percentText,
  Table,
  time,
  useAction,
  useAsync,
  usePager,
} from '../../ui-kit/ui.js';

/** Every merchant's webhook endpoints with their health, delivery logs and redelivery. */
export function Webhooks() {
  const pager = usePager();
  const list = useAsync(
    () => admin<Page<WebhookEndpoint>>(`/webhook-endpoints${qs({ cursor: pager.cursor })}`),
    [pager.cursor],
  );
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section aria-labelledby="webhooks-h">
      <h1 id="webhooks-h">Webhook endpoints</h1>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="endpoints" />
      ) : (
        <>
          <Table
            caption="Webhook endpoints"
            rows={list.data.items}
            rowKey={(e) => e.id}
            columns={[
              { label: 'Endpoint', render: (e) => <code>{e.url}</code> },
              { label: 'Merchant', render: (e) => e.merchantId },
              {
                label: 'Success (24 h)',
                num: true,
                render: (e) => `${percentText(e.health.successRate24h)} of ${e.health.attempts24h}`,
              },
              { label: 'Queued', num: true, render: (e) => e.health.queued },
              { label: 'Oldest queued', render: (e) => time(e.health.oldestQueuedAt) },
              {
                label: 'State',
                render: (e) =>
                  e.health.disabled
                    ? `disabled (${e.health.disabledReason})`
                    : e.health.failingSince
                      ? `failing since ${time(e.health.failingSince)}`
                      : 'healthy',
              },
              {
                label: 'Log',
                render: (e) => (
                  <button
                    type="button"
                    aria-expanded={open === e.id}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  >
                    {open === e.id ? 'Hide' : 'Deliveries'} <span class="sr-only">of {e.url}</span>
                  </button>
                ),
              },
            ]}
            empty="No merchant has a webhook endpoint."
          />
          <Pager pager={pager} nextCursor={list.data.nextCursor} />
          {open ? <Deliveries endpointId={open} /> : null}
        </>
      )}
    </section>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const pager = usePager();
  const log = useAsync(
    () => admin<Page<WebhookAttempt>>(`/webhook-endpoints/${endpointId}/deliveries${qs({ cursor: pager.cursor })}`),
    [endpointId, pager.cursor],
  );
  const action = useAction();
  const [eventId, setEventId] = useState('');
  const redeliver = (id: string) =>
    action
      .run(`Event ${id} queued again.`, () =>
        adminWrite('POST', `/webhook-endpoints/${endpointId}/redeliver`, { eventId: id }),
      )
      .then((ok) => ok && log.reload());
  return (
    <>
      <h2>Delivery log of {endpointId}</h2>
      <ErrorNote error={log.error} />
      {log.data === undefined ? (
        <Loading what="deliveries" />
      ) : (
        <Table
          caption="Delivery attempts, newest first"
          rows={log.data.items}
          rowKey={(a) => a.id}
          columns={[
            { label: 'When', render: (a) => time(a.attemptedAt) },
            { label: 'Event', render: (a) => `${a.eventType} ${a.eventId}` },
            {
              label: 'Result',
              render: (a) => (a.succeeded ? `ok ${a.statusCode}` : `failed ${a.statusCode ?? a.error ?? ''}`),
            },
            { label: 'Latency', num: true, render: (a) => `${a.latencyMs} ms` },
            {
              label: 'Action',
              render: (a) => (
                <button type="button" disabled={action.busy} onClick={() => redeliver(a.eventId)}>
                  Redeliver <span class="sr-only">{a.eventId}</span>
                </button>
              ),
            },
          ]}
          empty="No attempts yet."
        />
      )}
      {log.data ? <Pager pager={pager} nextCursor={log.data.nextCursor} label="Pages of deliveries" /> : null}
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void redeliver(eventId.trim());
        }}
      >
        <Field label="Redeliver an event by id">
          <input required value={eventId} placeholder="evt_…" onInput={(e) => setEventId(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>
          Redeliver
        </button>
      </form>
      <ActionStatus action={action} />
    </>
  );
}
