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
      <h1>Webhooks</h1>
      <p class="muted">hostpay POSTs every event to these URLs, signed with the endpoint's secret.</p>
      {secret ? (
        <section class="secret" aria-labelledby="whsec-h" data-testid="webhook-secret">
          <h2 id="whsec-h">Copy the signing secret now</h2>
          <p>
            Endpoint <code>{secret.id}</code> signs with <code>{secret.secret}</code>. It is shown only this once.
          </p>
          <button type="button" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </section>
      ) : null}
      <ActionForm
        action={action}
        id="newep-h"
        title="Add an endpoint"
        submit="Add endpoint"
        status={false}
        onSubmit={() =>
          action.run('Endpoint added.', async () => {
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
        <Field label="Endpoint URL" hint="https://…; every event type is sent">
          <input type="url" required maxLength={2048} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </Field>
        <Field label="Description (optional)">
          <input maxLength={500} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        </Field>
      </ActionForm>
      <ActionStatus action={action} />
      {confirm.dialog}
      <h2>Endpoints</h2>
      <ErrorNote error={endpoints.error} />
      {endpoints.data === undefined ? (
        endpoints.error ? null : (
          <Loading what="endpoints" />
        )
      ) : (
        <Table
          caption="Webhook endpoints"
          rows={endpoints.data.items}
          rowKey={(w) => w.id}
          empty="No endpoint yet."
          columns={[
            { label: 'URL', render: (w) => <code class="clip">{w.url}</code> },
            {
              label: 'State',
              render: (w) => (w.disabled ? `disabled (${w.disabledReason ?? 'merchant'})` : 'enabled'),
            },
            { label: 'Last success', render: (w) => time(w.lastSuccessAt) },
            {
              label: 'Actions',
              render: (w) => (
                <div class="row-actions">
                  <button
                    type="button"
                    aria-expanded={open === w.id}
                    onClick={() => setOpen(open === w.id ? null : w.id)}
                  >
                    Deliveries <span class="sr-only">of {w.url}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      void action.run('Test event queued.', () => cpWrite('POST', `/webhook-endpoints/${w.id}/test`))
                    }
                  >
                    Send test <span class="sr-only">to {w.url}</span>
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      confirm.ask({
                        title: 'Rotate the signing secret?',
                        body: <p>A new secret signs from now on; the old one keeps signing for 24 hours beside it.</p>,
                        confirm: 'Rotate secret',
                        action: () =>
                          action.run('Secret rotated.', async () => {
                            const ep = await cpWrite<WebhookEndpoint>(
                              'POST',
                              `/webhook-endpoints/${w.id}/rotate-secret`,
                            );
                            if (ep.secret) setSecret({ id: ep.id, secret: ep.secret });
                          }),
                      })
                    }
                  >
                    Rotate secret <span class="sr-only">of {w.url}</span>
                  </button>
                  <button
                    type="button"
                    class="danger"
                    onClick={() =>
                      confirm.ask({
                        title: 'Delete this endpoint?',
                        body: <p>Nothing more is sent to it, and its queued deliveries are dropped.</p>,
                        confirm: 'Delete endpoint',
                        danger: true,
                        action: () =>
                          action.run('Endpoint deleted.', () => cpWrite('DELETE', `/webhook-endpoints/${w.id}`)),
                      })
                    }
                  >
                    Delete <span class="sr-only">{w.url}</span>
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
      <h2 id="deliveries-h">Delivery log</h2>
      <ErrorNote error={attempts.error} />
      <ActionStatus action={action} />
      {attempts.data === undefined ? null : (
        <Table
          caption="Delivery attempts, newest first"
          rows={attempts.data.items}
          rowKey={(a) => a.id}
          empty="Nothing sent to this endpoint yet."
          columns={[
            { label: 'Event', render: (a) => <code>{a.eventType}</code> },
            { label: 'At', render: (a) => time(a.attemptedAt) },
            {
              label: 'Answer',
              render: (a) => (a.succeeded ? `${a.statusCode} ok` : (a.error ?? `HTTP ${a.statusCode}`)),
            },
            { label: 'Latency', num: true, render: (a) => `${a.latencyMs} ms` },
            {
              label: 'Resend',
              render: (a) => (
                <button
                  type="button"
                  onClick={() =>
                    void action.run('Event sent again.', () => cpWrite('POST', `/events/${a.eventId}/redeliver`))
                  }
                >
                  Resend <span class="sr-only">{a.eventId}</span>
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
