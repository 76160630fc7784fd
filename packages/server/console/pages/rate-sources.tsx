import { useState } from 'preact/hooks';
import { admin, adminWrite } from '../api.js';
import type { RateSource } from '../views.js';
import { ActionStatus, ErrorNote, Field, Loading, Table, time, useAction, useAsync } from '../../ui-kit/ui.js';
import { t } from '../messages.js';

const KINDS = ['coinbase', 'kraken', 'binance', 'ecb', 'demo'];

/** The rate feeds' sources with their health (docs/rates.md); set one up or remove it. */
export function RateSources() {
  const list = useAsync(() => admin<RateSource[]>('/rate-sources'), []);
  // Empty seconds: a source's current value, or the kind's default for a new one (server side).
  const [f, setF] = useState({
    id: '',
    kind: 'coinbase',
    pairs: '',
    baseUrl: '',
    refreshSeconds: '',
    maxAgeSeconds: '',
    enabled: true,
  });
  const action = useAction();
  return (
    <section aria-labelledby="rate-sources-h">
      <h1 id="rate-sources-h">{t('rate-sources.title')}</h1>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what={t('rate-sources.loadingWhat')} />
      ) : (
        <Table
          caption={t('rate-sources.title')}
          rows={list.data}
          rowKey={(s) => s.id}
          columns={[
            { label: t('rate-sources.source'), render: (s) => `${s.id} (${s.kind})` },
            { label: t('rate-sources.address'), render: (s) => (s.baseUrl === null ? '—' : <code>{s.baseUrl}</code>) },
            { label: t('rate-sources.pairs'), render: (s) => s.pairs.join(', ') },
            { label: t('rate-sources.every'), num: true, render: (s) => `${s.refreshSeconds} s` },
            { label: t('rate-sources.maxAge'), num: true, render: (s) => `${s.maxAgeSeconds} s` },
            {
              label: t('rate-sources.health'),
              render: (s) => (s.health.state === 'down' ? <strong>{s.health.state}</strong> : s.health.state),
            },
            { label: t('rate-sources.lastSuccess'), render: (s) => time(s.health.lastSuccessAt) },
            {
              label: t('rate-sources.latency'),
              num: true,
              render: (s) => (s.health.latencyMs === null ? '—' : `${s.health.latencyMs} ms`),
            },
            { label: t('rate-sources.lastError'), render: (s) => s.health.lastError ?? '—' },
            {
              label: t('rate-sources.remove'),
              render: (s) => (
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={async () => {
                    if (
                      await action.run(t('rate-sources.removed', { id: s.id }), () =>
                        adminWrite('DELETE', `/rate-sources/${s.id}`),
                      )
                    )
                      list.reload();
                  }}
                >
                  {t('rate-sources.removeButton', { id: s.id })}
                </button>
              ),
            },
          ]}
          empty={t('rate-sources.empty')}
        />
      )}
      <form
        class="card-form"
        aria-label={t('rate-sources.setTitle')}
        onSubmit={async (e) => {
          e.preventDefault();
          const body = {
            kind: f.kind,
            pairs: f.pairs
              .split(',')
              .map((p) => p.trim())
              .filter((p) => p !== ''),
            ...(f.baseUrl.trim() === '' ? {} : { baseUrl: f.baseUrl.trim() }),
            ...(f.refreshSeconds.trim() === '' ? {} : { refreshSeconds: Number(f.refreshSeconds) }),
            ...(f.maxAgeSeconds.trim() === '' ? {} : { maxAgeSeconds: Number(f.maxAgeSeconds) }),
            enabled: f.enabled,
          };
          if (
            await action.run(t('rate-sources.saved', { id: f.id }), () =>
              adminWrite('PUT', `/rate-sources/${f.id.trim()}`, body),
            )
          )
            list.reload();
        }}
      >
        <h2>{t('rate-sources.setTitle')}</h2>
        <Field label={t('rate-sources.id')}>
          <input
            required
            pattern="[a-z0-9][a-z0-9_\-]{0,39}"
            value={f.id}
            onInput={(e) => setF({ ...f, id: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('rate-sources.kind')}>
          <select value={f.kind} onChange={(e) => setF({ ...f, kind: e.currentTarget.value })}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('rate-sources.pairs')} hint={t('rate-sources.pairsHint')}>
          <input required value={f.pairs} onInput={(e) => setF({ ...f, pairs: e.currentTarget.value })} />
        </Field>
        <Field label={t('rate-sources.baseUrl')} hint={t('rate-sources.baseUrlHint')}>
          <input type="url" value={f.baseUrl} onInput={(e) => setF({ ...f, baseUrl: e.currentTarget.value })} />
        </Field>
        <Field label={t('rate-sources.refresh')} hint={t('rate-sources.refreshHint')}>
          <input
            type="number"
            min={5}
            max={86400}
            step={1}
            value={f.refreshSeconds}
            onInput={(e) => setF({ ...f, refreshSeconds: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('rate-sources.maximumAge')} hint={t('rate-sources.maximumAgeHint')}>
          <input
            type="number"
            min={5}
            max={2592000}
            step={1}
            value={f.maxAgeSeconds}
            onInput={(e) => setF({ ...f, maxAgeSeconds: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('rate-sources.enabled')} hint={t('rate-sources.enabledHint')}>
          <input
            type="checkbox"
            checked={f.enabled}
            onChange={(e) => setF({ ...f, enabled: e.currentTarget.checked })}
          />
        </Field>
        <button type="submit" class="primary" disabled={action.busy}>
          {t('rate-sources.save')}
        </button>
        <ActionStatus action={action} />
      </form>
    </section>
  );
}
