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
import { t } from '../messages.js';

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
      <h1 id="webhooks-h">{t('webhooks.title')}</h1>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('webhooks.loadingEndpoints')} />
      ) : (
        <>
          <Table
            caption={t('webhooks.title')}
            rows={list.data.items}
            rowKey={(e) => e.id}
            columns={[
              { label: t('webhooks.endpoint'), render: (e) => <code>{e.url}</code> },
              { label: t('webhooks.merchant'), render: (e) => e.merchantId },
              {
                label: t('webhooks.success'),
                num: true,
                render: (e) =>
                  t('webhooks.successOf', {
                    rate: percentText(e.health.successRate24h),
                    attempts: e.health.attempts24h,
                  }),
              },
              { label: t('webhooks.queued'), num: true, render: (e) => e.health.queued },
              { label: t('webhooks.oldestQueued'), render: (e) => time(e.health.oldestQueuedAt) },
              {
                label: t('webhooks.state'),
                render: (e) =>
                  e.health.disabled
                    ? e.health.disabledReason
                      ? t('webhooks.disabled', { reason: e.health.disabledReason })
                      : t('webhooks.disabledNoReason')
                    : e.health.failingSince
                      ? t('webhooks.failingSince', { since: time(e.health.failingSince) })
                      : t('webhooks.healthy'),
              },
              {
                label: t('webhooks.log'),
                render: (e) => (
                  <button
                    type="button"
                    aria-expanded={open === e.id}
                    onClick={() => setOpen(open === e.id ? null : e.id)}
                  >
                    {open === e.id ? t('webhooks.hide') : t('webhooks.deliveries')}{' '}
                    <span class="sr-only">{t('webhooks.ofUrl', { url: e.url })}</span>
                  </button>
                ),
              },
            ]}
            empty={t('webhooks.noEndpoint')}
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
      .run(t('webhooks.queuedAgain', { id }), () =>
        adminWrite('POST', `/webhook-endpoints/${endpointId}/redeliver`, { eventId: id }),
      )
      .then((ok) => ok && log.reload());
  return (
    <>
      <h2>{t('webhooks.logTitle', { id: endpointId })}</h2>
      <ErrorNote error={log.error} />
      {log.data === undefined ? (
        <Loading what={t('webhooks.loadingDeliveries')} />
      ) : (
        <Table
          caption={t('webhooks.attemptsCaption')}
          rows={log.data.items}
          rowKey={(a) => a.id}
          columns={[
            { label: t('webhooks.when'), render: (a) => time(a.attemptedAt) },
            { label: t('webhooks.event'), render: (a) => `${a.eventType} ${a.eventId}` },
            {
              label: t('webhooks.result'),
              render: (a) =>
                a.succeeded
                  ? t('webhooks.resultOk', { code: String(a.statusCode) })
                  : t('webhooks.resultFailed', { detail: a.statusCode ?? a.error ?? '' }),
            },
            { label: t('webhooks.latency'), num: true, render: (a) => `${a.latencyMs} ms` },
            {
              label: t('webhooks.action'),
              render: (a) => (
                <button type="button" disabled={action.busy} onClick={() => redeliver(a.eventId)}>
                  {t('webhooks.redeliver')} <span class="sr-only">{a.eventId}</span>
                </button>
              ),
            },
          ]}
          empty={t('webhooks.noAttempts')}
        />
      )}
      {log.data ? <Pager pager={pager} nextCursor={log.data.nextCursor} label={t('webhooks.pagesLabel')} /> : null}
      <form
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void redeliver(eventId.trim());
        }}
      >
        <Field label={t('webhooks.redeliverById')}>
          <input required value={eventId} placeholder="evt_…" onInput={(e) => setEventId(e.currentTarget.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>
          {t('webhooks.redeliver')}
        </button>
      </form>
      <ActionStatus action={action} />
    </>
  );
}
