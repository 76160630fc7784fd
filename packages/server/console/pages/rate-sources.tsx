import { useState } from 'preact/hooks';
import { admin, adminWrite } from '../api.js';
import type { RateSource } from '../views.js';
import { ActionStatus, ErrorNote, Field, Loading, Table, time, useAction, useAsync } from '../../ui-kit/ui.js';

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
      <h1 id="rate-sources-h">Rate sources</h1>
      <ErrorNote error={list.error} />
      {list.data === undefined ? (
        <Loading what="rate sources" />
      ) : (
        <Table
          caption="Rate sources"
          rows={list.data}
          rowKey={(s) => s.id}
          columns={[
            { label: 'Source', render: (s) => `${s.id} (${s.kind})` },
            { label: 'Address', render: (s) => (s.baseUrl === null ? '—' : <code>{s.baseUrl}</code>) },
            { label: 'Pairs', render: (s) => s.pairs.join(', ') },
            { label: 'Every', num: true, render: (s) => `${s.refreshSeconds} s` },
            { label: 'Max age', num: true, render: (s) => `${s.maxAgeSeconds} s` },
            {
              label: 'Health',
              render: (s) => (s.health.state === 'down' ? <strong>down</strong> : s.health.state),
            },
            { label: 'Last success', render: (s) => time(s.health.lastSuccessAt) },
            {
              label: 'Latency',
              num: true,
              render: (s) => (s.health.latencyMs === null ? '—' : `${s.health.latencyMs} ms`),
            },
            { label: 'Last error', render: (s) => s.health.lastError ?? '—' },
            {
              label: 'Remove',
              render: (s) => (
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={async () => {
                    if (
                      await action.run(`Source ${s.id} removed.`, () => adminWrite('DELETE', `/rate-sources/${s.id}`))
                    )
                      list.reload();
                  }}
                >
                  Remove {s.id}
                </button>
              ),
            },
          ]}
          empty="No rate source: every rate is typed by hand."
        />
      )}
      <form
        class="card-form"
        aria-label="Set a rate source"
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
          if (await action.run(`Source ${f.id} saved.`, () => adminWrite('PUT', `/rate-sources/${f.id.trim()}`, body)))
            list.reload();
        }}
      >
        <h2>Set a rate source</h2>
        <Field label="Id">
          <input
            required
            pattern="[a-z0-9][a-z0-9_\-]{0,39}"
            value={f.id}
            onInput={(e) => setF({ ...f, id: e.currentTarget.value })}
          />
        </Field>
        <Field label="Kind">
          <select value={f.kind} onChange={(e) => setF({ ...f, kind: e.currentTarget.value })}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Pairs" hint="comma-separated, e.g. BTC/EUR, ETH/EUR">
          <input required value={f.pairs} onInput={(e) => setF({ ...f, pairs: e.currentTarget.value })} />
        </Field>
        <Field label="Base URL" hint="empty: the provider's own address">
          <input type="url" value={f.baseUrl} onInput={(e) => setF({ ...f, baseUrl: e.currentTarget.value })} />
        </Field>
        <Field label="Refresh every (s)" hint="empty: unchanged, or the default (60 s; ECB 3600 s)">
          <input
            type="number"
            min={5}
            max={86400}
            step={1}
            value={f.refreshSeconds}
            onInput={(e) => setF({ ...f, refreshSeconds: e.currentTarget.value })}
          />
        </Field>
        <Field
          label="Maximum age (s)"
          hint="older rates are not quoted; empty: unchanged, or the default (600 s; ECB 4 days)"
        >
          <input
            type="number"
            min={5}
            max={2592000}
            step={1}
            value={f.maxAgeSeconds}
            onInput={(e) => setF({ ...f, maxAgeSeconds: e.currentTarget.value })}
          />
        </Field>
        <Field label="Enabled" hint="a disabled source is not refreshed and its answers are not used">
          <input
            type="checkbox"
            checked={f.enabled}
            onChange={(e) => setF({ ...f, enabled: e.currentTarget.checked })}
          />
        </Field>
        <button type="submit" class="primary" disabled={action.busy}>
          Save
        </button>
        <ActionStatus action={action} />
      </form>
    </section>
  );
}
