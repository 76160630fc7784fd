import { useMemo, useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
import { t } from '../messages.js';
import type { FeePreview, FeeTier, Merchant, Page, Rate, SettlementCurrency } from '../views.js';
import { Chart } from '../../ui-kit/chart.js';
import {
  ActionStatus,
  Amount,
  duration,
  ErrorNote,
  Field,
  Loading,
  Table,
  time,
  useAction,
  useAsync,
  useConfirm,
} from '../../ui-kit/ui.js';

/** An input's handler that sets field `k` of a form's state. */
const setter =
  <F extends Record<string, string>>(f: F, setF: (f: F) => void) =>
  (k: keyof F) =>
  (e: { currentTarget: { value: string } }) =>
    setF({ ...f, [k]: e.currentTarget.value });

/** Fee schedules (with the curve a merchant's preview follows), settlement currencies and rates. */
export function Fees() {
  const [merchantFilter, setMerchantFilter] = useState('');
  const tiers = useAsync(() => admin<FeeTier[]>(`/fees${qs({ merchantId: merchantFilter })}`), [merchantFilter]);
  const merchants = useAsync(() => admin<Page<Merchant>>('/merchants?limit=200'), []);
  return (
    <section aria-labelledby="fees-h">
      <h1 id="fees-h">{t('fees.title')}</h1>
      <h2>{t('fees.schedules')}</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('fees.schedule')}>
          <select value={merchantFilter} onChange={(e) => setMerchantFilter(e.currentTarget.value)}>
            <option value="">{t('fees.all')}</option>
            <option value="default">{t('fees.defaultAll')}</option>
            {(merchants.data?.items ?? []).map((m) => (
              <option value={m.id} key={m.id}>
                {t('fees.overridesOf', { name: m.name })}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <ErrorNote error={tiers.error} />
      {tiers.data ? <TierTable tiers={tiers.data} onDone={tiers.reload} /> : <Loading what={t('fees.tiersWhat')} />}
      <AddTier merchants={merchants.data?.items ?? []} onDone={tiers.reload} />
      <FeeCurve merchants={merchants.data?.items ?? []} tiers={tiers.data ?? []} />
      <Settlements />
      <Rates />
    </section>
  );
}

function TierTable({ tiers, onDone }: { tiers: FeeTier[]; onDone: () => void }) {
  const action = useAction();
  const confirm = useConfirm();
  return (
    <>
      <Table
        caption={t('fees.tiersCaption')}
        rows={tiers}
        rowKey={(x) => x.id}
        columns={[
          { label: t('fees.schedule'), render: (x) => x.merchantId ?? t('fees.default') },
          { label: t('fees.currency'), render: (x) => x.currency },
          { label: t('fees.fromAmount'), num: true, render: (x) => <Amount value={x.fromAmount} /> },
          {
            label: t('fees.fee'),
            num: true,
            render: (x) =>
              x.isPercentage ? (
                <>
                  <Amount value={x.value} /> %
                </>
              ) : (
                <Amount value={x.value} />
              ),
          },
          { label: t('fees.minimum'), num: true, render: (x) => <Amount value={x.minValue} /> },
          { label: t('fees.onChainFee'), num: true, render: (x) => <Amount value={x.onChainFee} /> },
          {
            label: t('fees.action'),
            render: (x) => (
              <button
                type="button"
                class="danger"
                disabled={action.busy}
                onClick={() =>
                  confirm.ask({
                    title: t('fees.deleteTitle', { currency: x.currency, from: x.fromAmount }),
                    danger: true,
                    body: (
                      <p>{t('fees.deleteBody', { of: x.merchantId ?? 'none', cur: x.currency, from: x.fromAmount })}</p>
                    ),
                    confirm: t('fees.deleteConfirm'),
                    action: async () =>
                      (await action.run(t('fees.deleted'), () => adminWrite('DELETE', `/fees/${x.id}`))) && onDone(),
                  })
                }
              >
                {t('fees.delete')}{' '}
                <span class="sr-only">{t('fees.deleteWhat', { currency: x.currency, from: x.fromAmount })}</span>
              </button>
            ),
          },
        ]}
        empty={t('fees.noTiers')}
      />
      <ActionStatus action={action} />
      {confirm.dialog}
    </>
  );
}

function AddTier({ merchants, onDone }: { merchants: Merchant[]; onDone: () => void }) {
  const [f, setF] = useState({
    merchantId: '',
    currency: 'USDT',
    isPercentage: 'true',
    value: '',
    minValue: '',
    onChainFee: '',
    fromAmount: '',
  });
  const action = useAction();
  const set = setter(f, setF);
  return (
    <form
      class="card-form"
      aria-label={t('fees.setTier')}
      onSubmit={async (e) => {
        e.preventDefault();
        const body: Record<string, unknown> = {
          currency: f.currency.trim(),
          isPercentage: f.isPercentage === 'true',
          value: f.value.trim(),
        };
        for (const k of ['minValue', 'onChainFee', 'fromAmount', 'merchantId'] as const)
          if (f[k].trim() !== '') body[k] = f[k].trim();
        if (await action.run(t('fees.tierSet'), () => adminWrite('PUT', '/fees', body))) onDone();
      }}
    >
      <h3>{t('fees.setTier')}</h3>
      <div class="grid">
        <Field label={t('fees.schedule')}>
          <select value={f.merchantId} onChange={set('merchantId')}>
            <option value="">{t('fees.default')}</option>
            {merchants.map((m) => (
              <option value={m.id} key={m.id}>
                {t('fees.overrideFor', { name: m.name })}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('fees.currency')}>
          <input required value={f.currency} onInput={set('currency')} />
        </Field>
        <Field label={t('fees.kind')}>
          <select value={f.isPercentage} onChange={set('isPercentage')}>
            <option value="true">{t('fees.percentage')}</option>
            <option value="false">{t('fees.fixed')}</option>
          </select>
        </Field>
        <Field label={t('fees.value')}>
          <input required inputMode="decimal" value={f.value} onInput={set('value')} />
        </Field>
        <Field label={t('fees.minimumFee')}>
          <input inputMode="decimal" value={f.minValue} onInput={set('minValue')} />
        </Field>
        <Field label={t('fees.onChainFee')}>
          <input inputMode="decimal" value={f.onChainFee} onInput={set('onChainFee')} />
        </Field>
        <Field label={t('fees.fromAmount')}>
          <input inputMode="decimal" value={f.fromAmount} placeholder="0" onInput={set('fromAmount')} />
        </Field>
      </div>
      <button type="submit" class="primary" disabled={action.busy}>
        {t('fees.setTierButton')}
      </button>
      <ActionStatus action={action} />
    </form>
  );
}

/** Amounts to ask the preview for: log-spaced from 1 to past the last tier, and either side of every tier's start (request inputs only). */
function sampleAmounts(starts: number[]): string[] {
  const top = Math.max(1000, ...starts.map((s) => s * 4));
  const points = new Set<string>();
  const steps = 36;
  for (let i = 0; i <= steps; i++) points.add((10 ** ((Math.log10(top) * i) / steps)).toFixed(2));
  for (const s of starts) if (s > 0) for (const p of [s * 0.999, s]) points.add(p.toFixed(2));
  return [...points].filter((p) => p !== '0.00').sort((a, b) => Number(a) - Number(b));
}

/** The fee a merchant's preview gives across amounts: every point is GET /admin/v1/fees/preview. */
function FeeCurve({ merchants, tiers }: { merchants: Merchant[]; tiers: FeeTier[] }) {
  const currencies = [...new Set(tiers.map((x) => x.currency as string))].sort();
  const [merchantId, setMerchantId] = useState('');
  const [currency, setCurrency] = useState('USDT');
  const mid = merchantId || merchants[0]?.id || '';
  const starts = tiers
    .filter((x) => x.currency === currency && (x.merchantId === null || x.merchantId === mid))
    .map((x) => Number(x.fromAmount));
  const amounts = useMemo(() => sampleAmounts(starts), [starts.join(',')]);
  const curve = useAsync(
    async () =>
      mid === ''
        ? []
        : Promise.all(
            amounts.map((amount) => admin<FeePreview>(`/fees/preview${qs({ merchantId: mid, currency, amount })}`)),
          ),
    [mid, currency, amounts.join(',')],
  );
  const boundaries =
    curve.data?.filter((p, i, all) => i === 0 || JSON.stringify(p.tier) !== JSON.stringify(all[i - 1]!.tier)) ?? [];
  return (
    <>
      <h2>{t('fees.curve')}</h2>
      <p class="muted">{t('fees.curveNote')}</p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label={t('fees.merchant')}>
          <select value={mid} onChange={(e) => setMerchantId(e.currentTarget.value)}>
            {merchants.map((m) => (
              <option value={m.id} key={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('fees.currency')}>
          <select value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
            {(currencies.length ? currencies : ['USDT']).map((c) => (
              <option value={c} key={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <ErrorNote error={curve.error} />
      {curve.data === undefined ? (
        <Loading what={t('fees.curveWhat')} />
      ) : curve.data.length === 0 ? null : (
        <div data-testid="fee-curve">
          <Chart
            title={t('fees.curveTitle', { currency, feeCurrency: curve.data[0]!.currency })}
            x={amounts.map(Number)}
            logX
            logY={curve.data.every((p) => Number(p.fee) > 0 && Number(p.serviceFee) > 0)}
            xLabel={t('fees.curveX', { currency })}
            yLabel={t('fees.curveY', { currency: curve.data[0]!.currency })}
            series={[
              { label: t('fees.seriesFee'), color: '#1f5fbf', values: curve.data.map((p) => Number(p.fee)) },
              {
                label: t('fees.seriesServiceFee'),
                color: '#b35900',
                values: curve.data.map((p) => Number(p.serviceFee)),
              },
            ]}
          />
          <Table
            caption={t('fees.boundaries')}
            rows={boundaries}
            rowKey={(p) => String(p.amount)}
            columns={[
              { label: t('fees.amount'), num: true, render: (p) => <Amount value={p.amount} unit={currency} /> },
              { label: t('fees.tierFrom'), num: true, render: (p) => <Amount value={p.tier?.fromAmount} /> },
              { label: t('fees.schedule'), render: (p) => p.scheduleSource },
              { label: t('fees.fee'), num: true, render: (p) => <Amount value={p.fee} unit={p.currency} /> },
            ]}
          />
        </div>
      )}
    </>
  );
}

function Settlements() {
  const list = useAsync(() => admin<SettlementCurrency[]>('/settlement-currencies'), []);
  const [f, setF] = useState({ currency: '', settlementCurrency: '', merchantId: '' });
  const set = setter(f, setF);
  const action = useAction();
  return (
    <>
      <h2>{t('fees.settlements')}</h2>
      <ErrorNote error={list.error} />
      <Table
        caption={t('fees.settlements')}
        rows={list.data ?? []}
        rowKey={(r) => `${r.merchantId}-${r.currency}`}
        columns={[
          { label: t('fees.schedule'), render: (r) => r.merchantId ?? t('fees.default') },
          { label: t('fees.currency'), render: (r) => r.currency },
          { label: t('fees.chargedIn'), render: (r) => r.settlementCurrency },
          { label: t('fees.updated'), render: (r) => time(r.updatedAt) },
        ]}
        empty={t('fees.settlementsEmpty')}
      />
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await action.run(t('fees.settlementSet'), () =>
              adminWrite('PUT', '/settlement-currencies', {
                currency: f.currency.trim(),
                settlementCurrency: f.settlementCurrency.trim(),
                ...(f.merchantId.trim() ? { merchantId: f.merchantId.trim() } : {}),
              }),
            )
          )
            list.reload();
        }}
      >
        <Field label={t('fees.currency')}>
          <input required value={f.currency} onInput={set('currency')} />
        </Field>
        <Field label={t('fees.chargeIn')}>
          <input required value={f.settlementCurrency} onInput={set('settlementCurrency')} />
        </Field>
        <Field label={t('fees.merchantIdDefault')}>
          <input value={f.merchantId} onInput={set('merchantId')} />
        </Field>
        <button type="submit" disabled={action.busy}>
          {t('fees.set')}
        </button>
      </form>
      <ActionStatus action={action} />
    </>
  );
}

function Rates() {
  const list = useAsync(() => admin<Rate[]>('/rates'), []);
  const [f, setF] = useState({ base: '', quote: '', rate: '' });
  const set = setter(f, setF);
  const action = useAction();
  return (
    <>
      <h2>{t('fees.rates')}</h2>
      <ErrorNote error={list.error} />
      <Table
        caption={t('fees.rates')}
        rows={list.data ?? []}
        rowKey={(r) => `${r.base}-${r.quote}`}
        columns={[
          { label: t('fees.pair'), render: (r) => `1 ${r.base} =` },
          { label: t('fees.rate'), num: true, render: (r) => <Amount value={r.rate} unit={r.quote} /> },
          { label: t('fees.source'), render: (r) => r.source },
          { label: t('fees.fetched'), render: (r) => time(r.fetchedAt) },
          { label: t('fees.age'), num: true, render: (r) => duration(r.ageSeconds) },
          {
            label: t('fees.stale'),
            render: (r) => (r.stale ? <strong>{t('fees.staleNotUsed')}</strong> : t('fees.no')),
          },
          { label: t('fees.pinned'), render: (r) => (r.pinned ? t('fees.yes') : t('fees.no')) },
        ]}
        empty={t('fees.noRates')}
      />
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await action.run(t('fees.rateSet'), () =>
              adminWrite('PUT', '/rates', {
                base: f.base.trim(),
                quote: f.quote.trim(),
                rate: f.rate.trim(),
                source: 'console',
              }),
            )
          )
            list.reload();
        }}
      >
        <Field label={t('fees.base')}>
          <input required value={f.base} onInput={set('base')} />
        </Field>
        <Field label={t('fees.quote')}>
          <input required value={f.quote} onInput={set('quote')} />
        </Field>
        <Field label={t('fees.rateField')}>
          <input required inputMode="decimal" value={f.rate} onInput={set('rate')} />
        </Field>
        <button type="submit" disabled={action.busy}>
          {t('fees.setRate')}
        </button>
      </form>
      <ActionStatus action={action} />
    </>
  );
}
