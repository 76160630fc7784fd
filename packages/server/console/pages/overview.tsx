import { useMemo, useState } from 'preact/hooks';
import { admin, qs } from '../api.js';
import { Chart, type Series } from '../../ui-kit/chart.js';
import { t } from '../messages.js';
import { Amount, duration, ErrorNote, Field, Loading, percentText, Table, time, useAsync } from '../../ui-kit/ui.js';
import type { Stats } from '../views.js';

const DAY = 86_400_000;
const PRESETS = [
  ['7', t('overview.last7')],
  ['30', t('overview.last30')],
  ['90', t('overview.last90')],
  ['365', t('overview.last365')],
  ['custom', t('overview.custom')],
] as const;
const COLORS = ['#1f5fbf', '#b35900', '#2e7d32', '#8e24aa', '#c62828', '#00838f'];

const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

/** The business at a glance: every figure is GET /admin/v1/stats for the chosen range. */
export function Overview() {
  const [preset, setPreset] = useState<string>('30');
  const [custom, setCustom] = useState({ from: '', to: '' });
  const isCustom = preset === 'custom';
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
        <h1 id="overview-h">{t('overview.title')}</h1>
        <form class="range" onSubmit={(e) => e.preventDefault()}>
          <Field label={t('overview.timeRange')}>
            <select value={preset} onChange={(e) => setPreset(e.currentTarget.value)} data-testid="range">
              {PRESETS.map(([v, l]) => (
                <option value={v} key={v}>
                  {l}
                </option>
              ))}
            </select>
          </Field>
          {isCustom ? (
            <>
              <Field label={t('overview.from')}>
                <input
                  type="date"
                  value={custom.from}
                  onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })}
                />
              </Field>
              <Field label={t('overview.to')}>
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
      {stats.data === undefined ? <Loading what={t('overview.figures')} /> : <Figures stats={stats.data} />}
    </section>
  );
}

function Figures({ stats }: { stats: Stats }) {
  const f = stats.funnel;
  const { x, series } = useMemo(() => volumeSeries(stats), [stats]);
  return (
    <>
      <p class="muted" data-testid="range-shown">
        {t('overview.rangeShown', { from: time(stats.from), to: time(stats.to) })}
      </p>
      <div class="cards">
        <Card label={t('overview.created')} testid="created">
          {f.created}
        </Card>
        <Card label={t('overview.conversion')} testid="conversion">
          {percentText(f.conversionRate)}
        </Card>
        <Card label={t('overview.median')} testid="median">
          {duration(stats.timeToSettle.medianSeconds)}
        </Card>
        <Card label={t('overview.webhookRate')} testid="webhook-rate">
          {percentText(stats.webhooks.successRate)}
        </Card>
        {stats.settledTotals.map((x) => (
          <Card
            label={t('overview.credited', { asset: x.asset, count: x.count })}
            testid={`settled-${x.asset}`}
            key={x.asset}
          >
            <Amount value={x.amount} />
          </Card>
        ))}
      </div>

      <h2>{t('overview.volumeTitle')}</h2>
      {x.length === 0 ? (
        <p class="muted">{t('overview.nothingSettled')}</p>
      ) : (
        <Chart
          title={t('overview.chartTitle')}
          x={x}
          series={series}
          xLabel={t('overview.chartX')}
          yLabel={t('overview.chartY')}
          time
        />
      )}
      <Table
        caption={t('overview.volumeCaption')}
        rows={stats.settledVolume}
        rowKey={(r) => `${r.day}-${r.asset}`}
        columns={[
          { label: t('overview.day'), render: (r) => r.day },
          { label: t('overview.asset'), render: (r) => r.asset },
          { label: t('overview.creditedNet'), num: true, render: (r) => <Amount value={r.amount} /> },
          { label: t('overview.checkoutsSettled'), num: true, render: (r) => r.count },
        ]}
        empty={t('overview.noSettlements')}
      />

      <div class="two">
        <div>
          <h2>{t('overview.funnel')}</h2>
          <p class="muted">{t('overview.funnelNote')}</p>
          <dl class="funnel" data-testid="funnel">
            {(
              [
                ['created', t('overview.stepCreated'), f.created],
                ['paid', t('overview.stepPaid'), f.paid],
                ['settled', t('overview.stepSettled'), f.settled],
                ['expired', t('overview.stepExpired'), f.expired],
                ['needsReview', t('overview.stepNeedsReview'), f.needsReview],
              ] as const
            ).map(([key, label, n]) => (
              <div key={key} data-step={key}>
                <dt>{label}</dt>
                <dd>
                  <progress
                    max={Math.max(1, Number(f.created))}
                    value={Number(n)}
                    aria-label={t('overview.funnelStep', { label, n, total: f.created })}
                  />
                  <span class="num">{n}</span>
                </dd>
              </div>
            ))}
          </dl>
          <p>
            {t('overview.paidRate')} <strong data-testid="paid-rate">{percentText(f.paidRate)}</strong>
            {t('overview.conversionRate')} <strong>{percentText(f.conversionRate)}</strong>
            {t('overview.settledInRange', { n: stats.timeToSettle.settled })}
          </p>
        </div>
        <div>
          <h2>{t('overview.webhookHealth')}</h2>
          <dl class="facts" data-testid="webhooks">
            <dt>{t('overview.attempts')}</dt>
            <dd>{stats.webhooks.attempts}</dd>
            <dt>{t('overview.succeeded')}</dt>
            <dd>{stats.webhooks.succeeded}</dd>
            <dt>{t('overview.successRate')}</dt>
            <dd>{percentText(stats.webhooks.successRate)}</dd>
            <dt>{t('overview.queued')}</dt>
            <dd data-testid="queued">{stats.webhooks.queued}</dd>
            <dt>{t('overview.oldestQueued')}</dt>
            <dd>{time(stats.webhooks.oldestQueuedAt)}</dd>
            <dt>{t('overview.endpointsFailing')}</dt>
            <dd>{stats.webhooks.endpointsFailingOrDisabled}</dd>
          </dl>
        </div>
      </div>

      <h2>{t('overview.balances')}</h2>
      <Table
        caption={t('overview.balancesCaption')}
        rows={stats.balances}
        rowKey={(r) => `${r.asset}-${r.chain}`}
        columns={[
          { label: t('overview.asset'), render: (r) => r.asset },
          { label: t('overview.chain'), render: (r) => r.chain },
          { label: t('overview.balance'), num: true, render: (r) => <Amount value={r.amount} /> },
          { label: t('overview.frozen'), num: true, render: (r) => <Amount value={r.frozen} /> },
          { label: t('overview.wallets'), num: true, render: (r) => r.wallets },
        ]}
        empty={t('overview.noWallets')}
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
  for (let ms = dayStart(Date.parse(stats.from)); ms < Date.parse(stats.to); ms += DAY)
    days.push(new Date(ms).toISOString().slice(0, 10));
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
