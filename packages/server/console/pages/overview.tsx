import { useMemo, useState } from 'preact/hooks';
import { admin, qs } from '../api.js';
import { Chart, type Series } from '../../ui-kit/chart.js';
import { Amount, duration, ErrorNote, Field, Loading, percentText, Table, time, useAsync } from '../../ui-kit/ui.js';
import type { Stats } from '../views.js';

const DAY = 86_400_000;
const PRESETS = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
  ['90', 'Last 90 days'],
  ['365', 'Last 365 days'],
  ['custom', 'Custom range'],
] as const;
const COLORS = ['#1f5fbf', '#b35900', '#2e7d32', '#8e24aa', '#c62828', '#00838f'];

const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

/** The business at a glance: every figure is GET /admin/v1/stats for the chosen range. */
export function Overview() {
  const [preset, setPreset] = useState<string>('30');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const range = useMemo(() => {
    if (preset === 'custom' && custom.from && custom.to)
      return {
        from: `${custom.from}T00:00:00Z`,
        to: new Date(Date.parse(`${custom.to}T00:00:00Z`) + DAY).toISOString(),
      };
    const to = dayStart(Date.now()) + DAY;
    return {
      from: new Date(to - Number(preset === 'custom' ? 30 : preset) * DAY).toISOString(),
      to: new Date(to).toISOString(),
    };
  }, [preset, custom]);
  const stats = useAsync(() => admin<Stats>(`/stats${qs(range)}`), [range.from, range.to]);

  return (
    <section aria-labelledby="overview-h">
      <div class="page-head">
        <h1 id="overview-h">Overview</h1>
        <form class="range" onSubmit={(e) => e.preventDefault()}>
          <Field label="Time range">
            <select value={preset} onChange={(e) => setPreset(e.currentTarget.value)} data-testid="range">
              {PRESETS.map(([v, l]) => (
                <option value={v} key={v}>
                  {l}
                </option>
              ))}
            </select>
          </Field>
          {preset === 'custom' ? (
            <>
              <Field label="From (UTC day)">
                <input
                  type="date"
                  value={custom.from}
                  onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })}
                />
              </Field>
              <Field label="To (UTC day, included)">
                <input
                  type="date"
                  value={custom.to}
                  onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })}
                />
              </Field>
            </>
          ) : null}
        </form>
      </div>
      <ErrorNote error={stats.error} />
      {stats.data === undefined ? <Loading what="figures" /> : <Figures stats={stats.data} />}
    </section>
  );
}

function Figures({ stats }: { stats: Stats }) {
  const f = stats.funnel;
  const { x, series } = useMemo(() => volumeSeries(stats), [stats]);
  return (
    <>
      <p class="muted" data-testid="range-shown">
        {time(stats.from)} to {time(stats.to)}
      </p>
      <div class="cards">
        <Card label="Checkouts created in the range" testid="created">
          {f.created}
        </Card>
        <Card label="Conversion (settled / created)" testid="conversion">
          {percentText(f.conversionRate)}
        </Card>
        <Card label="Median time to settle" testid="median">
          {duration(stats.timeToSettle.medianSeconds)}
        </Card>
        <Card label="Webhook deliveries succeeded" testid="webhook-rate">
          {percentText(stats.webhooks.successRate)}
        </Card>
        {stats.settledTotals.map((t) => (
          <Card
            label={`Credited in ${t.asset}, net of fees (${t.count} settled checkout${t.count === '1' ? '' : 's'})`}
            testid={`settled-${t.asset}`}
            key={t.asset}
          >
            <Amount value={t.amount} />
          </Card>
        ))}
      </div>

      <h2>Settled volume per day (credited to merchants, net of fees)</h2>
      {x.length === 0 ? (
        <p class="muted">Nothing settled in this range.</p>
      ) : (
        <Chart
          title="Credited per day and asset, net of fees"
          x={x}
          series={series}
          xLabel="day (UTC)"
          yLabel="credited (net of fees)"
          time
        />
      )}
      <Table
        caption="Settled volume per day and asset"
        rows={stats.settledVolume}
        rowKey={(r) => `${r.day}-${r.asset}`}
        columns={[
          { label: 'Day (UTC)', render: (r) => r.day },
          { label: 'Asset', render: (r) => r.asset },
          { label: 'Credited, net of fees', num: true, render: (r) => <Amount value={r.amount} /> },
          { label: 'Checkouts settled', num: true, render: (r) => r.count },
        ]}
        empty="No settlements in this range."
      />

      <div class="two">
        <div>
          <h2>Checkout funnel</h2>
          <p class="muted">Checkouts created in the range, by how far they got.</p>
          <dl class="funnel" data-testid="funnel">
            {(
              [
                ['created', 'Created', f.created],
                ['paid', 'Paid', f.paid],
                ['settled', 'Settled', f.settled],
                ['expired', 'Expired', f.expired],
                ['needsReview', 'Needs review', f.needsReview],
              ] as const
            ).map(([key, label, n]) => (
              <div key={key} data-step={key}>
                <dt>{label}</dt>
                <dd>
                  <progress
                    max={Math.max(1, Number(f.created))}
                    value={Number(n)}
                    aria-label={`${label}: ${n} of ${f.created}`}
                  />
                  <span class="num">{n}</span>
                </dd>
              </div>
            ))}
          </dl>
          <p>
            Paid rate <strong data-testid="paid-rate">{percentText(f.paidRate)}</strong>, conversion{' '}
            <strong>{percentText(f.conversionRate)}</strong>; {stats.timeToSettle.settled} settled in the range.
          </p>
        </div>
        <div>
          <h2>Webhook health</h2>
          <dl class="facts" data-testid="webhooks">
            <dt>Attempts in range</dt>
            <dd>{stats.webhooks.attempts}</dd>
            <dt>Succeeded</dt>
            <dd>{stats.webhooks.succeeded}</dd>
            <dt>Success rate</dt>
            <dd>{percentText(stats.webhooks.successRate)}</dd>
            <dt>Queued now</dt>
            <dd data-testid="queued">{stats.webhooks.queued}</dd>
            <dt>Oldest queued delivery</dt>
            <dd>{time(stats.webhooks.oldestQueuedAt)}</dd>
            <dt>Endpoints failing or disabled</dt>
            <dd>{stats.webhooks.endpointsFailingOrDisabled}</dd>
          </dl>
        </div>
      </div>

      <h2>Balances now, per asset and chain</h2>
      <Table
        caption="Balances and frozen totals per asset and chain"
        rows={stats.balances}
        rowKey={(r) => `${r.asset}-${r.chain}`}
        columns={[
          { label: 'Asset', render: (r) => r.asset },
          { label: 'Chain', render: (r) => r.chain },
          { label: 'Balance (incl. frozen)', num: true, render: (r) => <Amount value={r.amount} /> },
          { label: 'Frozen', num: true, render: (r) => <Amount value={r.frozen} /> },
          { label: 'Wallets', num: true, render: (r) => r.wallets },
        ]}
        empty="No wallets."
      />
    </>
  );
}

function Card({ label, children, testid }: { label: string; children: preact.ComponentChildren; testid: string }) {
  return (
    <div class="card" data-testid={`card-${testid}`}>
      <div class="card-label">{label}</div>
      <div class="card-value">{children}</div>
    </div>
  );
}

/** One bar series per asset over every UTC day of the range (chart positions only; the table has the exact figures). */
function volumeSeries(stats: Stats): { x: number[]; series: Series[] } {
  const days: string[] = [];
  for (let t = dayStart(Date.parse(stats.from)); t < Date.parse(stats.to); t += DAY)
    days.push(new Date(t).toISOString().slice(0, 10));
  const assets = [...new Set(stats.settledVolume.map((v) => v.asset))].sort();
  if (assets.length === 0) return { x: [], series: [] };
  const x = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const series = assets.map((asset, i) => ({
    label: asset,
    color: COLORS[i % COLORS.length]!,
    bars: true,
    values: days.map((d) => {
      const v = stats.settledVolume.find((s) => s.day === d && s.asset === asset);
      return v === undefined ? null : Number(v.amount);
    }),
  }));
  return { x, series };
}
