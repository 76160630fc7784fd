import { useState } from 'preact/hooks';
import { ActionForm } from '../../ui-kit/action-form.js';
import {
  ActionStatus,
  ErrorNote,
  Field,
  Loading,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
} from '../../ui-kit/ui.js';
import { cp, cpPage, cpWrite } from '../api.js';
import { t } from '../messages.js';
import type { WebhookAttempt, WebhookEndpoint } from '../views.js';

/** Webhook endpoints: add one (its signing secret shown once), test, rotate, delete; each one's delivery log with resend. */
export function Webhooks() {
  const endpoints = useAsync(() => cpPage<WebhookEndpoint>('/webhook-endpoints', { limit: '100' }), []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<{ id: string; secret: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const action = useAction();
  const confirm = useConfirm();
  return (
    <>
      <h1>{t('webhooks.title')}</h1>
      <p class="muted">{t('webhooks.intro')}</p>
      {secret ? (
        <section class="secret" aria-labelledby="whsec-h" data-testid="webhook-secret">
          <h2 id="whsec-h">{t('webhooks.secretTitle')}</h2>
          <p>
            {t('webhooks.secretEndpoint')}
            <code>{secret.id}</code>
            {t('webhooks.secretSignsWith')}
            <code>{secret.secret}</code>
            {t('webhooks.secretOnce')}
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            {t('webhooks.copied')}
          </button>
        </section>
      ) : null}
      <ActionForm
        action={action}
        id="newep-h"
        title={t('webhooks.addTitle')}
        submit={t('webhooks.add')}
        status={false}
        onSubmit={() =>
          action.run(t('webhooks.added'), async () => {
            const ep = await cpWrite<WebhookEndpoint>('POST', '/webhook-endpoints', {
              url: url.trim(),
              ...(description.trim() ? { description: description.trim() } : {}),
            });
            if (ep.secret) setSecret({ id: ep.id, secret: ep.secret });
            setUrl('');
            setDescription('');
          })
        }
      >
        <Field label={t('webhooks.url')} hint={t('webhooks.urlHint')}>
          <input type="url" required maxLength={2048} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </Field>
        <Field label={t('webhooks.description')}>
          <input maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
      </ActionForm>
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>{t('webhooks.endpoints')}</h2>
      <ErrorNote error={endpoints.error} />
      {endpoints.data === undefined ? (
        endpoints.error ? null : (
          <Loading what={t('webhooks.what')} />
        )
      ) : (
        <Table
          caption={t('webhooks.caption')}
          rows={endpoints.data.items}
          rowKey={(w) => w.id}
          empty={t('webhooks.empty')}
          columns={[
            { label: 'URL', render: (w) => <code class="clip">{w.url}</code> },
            {
              label: t('webhooks.state'),
              render: (w) =>
                w.disabled ? t('webhooks.disabled', { reason: w.disabledReason ?? 'merchant' }) : t('webhooks.enabled'),
            },
            { label: t('webhooks.lastSuccess'), render: (w) => time(w.lastSuccessAt) },
            {
              label: t('webhooks.actions'),
              render: (w) => (
                <div class="row-actions">
                  <button
                    type="button"
                    aria-expanded={open === w.id}
                    onClick={() => setOpen(open === w.id ? null : w.id)}
                  >
                    {t('webhooks.deliveries')} <span class="sr-only">{t('webhooks.ofUrl', { url: w.url })}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      void action.run(t('webhooks.testQueued'), () =>
                        cpWrite('POST', `/webhook-endpoints/${w.id}/test`),
                      )
                    }
                  >
                    {t('webhooks.sendTest')} <span class="sr-only">{t('webhooks.toUrl', { url: w.url })}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      confirm.ask({
                        title: t('webhooks.rotateTitle'),
                        body: <p>{t('webhooks.rotateBody')}</p>,
                        confirm: t('webhooks.rotate'),
                        action: () =>
                          action.run(t('webhooks.rotated'), async () => {
                            const ep = await cpWrite<WebhookEndpoint>(
                              'POST',
                              `/webhook-endpoints/${w.id}/rotate-secret`,
                            );
                            if (ep.secret) setSecret({ id: ep.id, secret: ep.secret });
                          }),
                      })
                    }
                  >
                    {t('webhooks.rotate')} <span class="sr-only">{t('webhooks.ofUrl', { url: w.url })}</span>
                  </button>
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      confirm.ask({
                        title: t('webhooks.deleteTitle'),
                        body: <p>{t('webhooks.deleteBody')}</p>,
                        confirm: t('webhooks.deleteEndpoint'),
                        danger: true,
                        action: () =>
                          action.run(t('webhooks.deleted'), () => cpWrite('DELETE', `/webhook-endpoints/${w.id}`)),
                      })
                    }
                  >
                    {t('webhooks.delete')} <span class="sr-only">{w.url}</span>
                  </button>
                </div>
              ),
            },
          ]}
        />
      )}
      {open ? <Deliveries id={open} /> : null}
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const attempts = useAsync(() => cpPage<WebhookAttempt>(`/webhook-endpoints/${id}/deliveries`, { limit: '50' }), [id]);
  const action = useAction();
  return (
    <section aria-labelledby="deliveries-h">
      <h2 id="deliveries-h">{t('webhooks.deliveryLog')}</h2>
      <ErrorNote error={attempts.error} />
      <ActionStatus action={action} />
      {attempts.data === undefined ? null : (
        <Table
          caption={t('webhooks.deliveriesCaption')}
          rows={attempts.data.items}
          rowKey={(a) => a.id}
          empty={t('webhooks.deliveriesEmpty')}
          columns={[
            { label: t('webhooks.event'), render: (a) => <code>{a.eventType}</code> },
            { label: t('webhooks.at'), render: (a) => time(a.attemptedAt) },
            {
              label: t('webhooks.answer'),
              render: (a) =>
                a.succeeded ? t('webhooks.ok', { status: String(a.statusCode) }) : (a.error ?? `HTTP ${a.statusCode}`),
            },
            { label: t('webhooks.latency'), num: true, render: (a) => `${a.latencyMs} ms` },
            {
              label: t('webhooks.resend'),
              render: (a) => (
                <button
                  type="button"
                  onClick={() =>
                    void action.run(t('webhooks.resent'), () => cpWrite('POST', `/events/${a.eventId}/redeliver`))
                  }
                >
                  {t('webhooks.resend')} <span class="sr-only">{a.eventId}</span>
                </button>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

export const getEndpoint = (id: string) => cp<WebhookEndpoint>(`/webhook-endpoints/${id}`);
