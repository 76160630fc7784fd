import { useMemo, useState } from 'preact/hooks';
import { admin, adminWrite, qs } from '../api.js';
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

/** Fee schedules (with the curve a merchant's preview follows), settlement currencies and rates. */
export function Fees() {
  const [merchantFilter, setMerchantFilter] = useState('');
  const tiers = useAsync(() => admin<FeeTier[]>(`/fees${qs({ merchantId: merchantFilter })}`), [merchantFilter]);
  const merchants = useAsync(() => admin<Page<Merchant>>('/merchants?limit=200'), []);
  return (
    <section aria-labelledby="fees-h">
      <h1 id="fees-h">Fees, settlement currencies and rates</h1>
      <h2>Fee schedules</h2>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Schedule">
          <select value={merchantFilter} onChange={(e) => setMerchantFilter(e.currentTarget.value)}>
            <option value="">all</option>
            <option value="default">default (every merchant without an override)</option>
            {(merchants.data?.items ?? []).map((m) => (
              <option value={m.id} key={m.id}>
                overrides of {m.name}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <ErrorNote error={tiers.error} />
      {tiers.data === undefined ? <Loading what="fee tiers" /> : <TierTable tiers={tiers.data} onDone={tiers.reload} />}
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
        caption="Fee tiers"
        rows={tiers}
        rowKey={(t) => t.id}
        columns={[
          { label: 'Schedule', render: (t) => t.merchantId ?? 'default' },
          { label: 'Currency', render: (t) => t.currency },
          { label: 'From amount', num: true, render: (t) => <Amount value={t.fromAmount} /> },
          {
            label: 'Fee',
            num: true,
            render: (t) =>
              t.isPercentage ? (
                <>
                  <Amount value={t.value} /> %
                </>
              ) : (
                <Amount value={t.value} />
              ),
          },
          { label: 'Minimum', num: true, render: (t) => <Amount value={t.minValue} /> },
          { label: 'On-chain fee', num: true, render: (t) => <Amount value={t.onChainFee} /> },
          {
            label: 'Action',
            render: (t) => (
              <button
                type="button"
                class="danger"
                disabled={action.busy}
                onClick={() =>
                  confirm.ask({
                    title: `Delete the ${t.currency} tier from ${t.fromAmount}?`,
                    danger: true,
                    body: (
                      <p>
                        Fees of {t.merchantId ? `merchant ${t.merchantId}` : 'every merchant on the default schedule'}{' '}
                        for {t.currency} amounts from {t.fromAmount} follow the tier below it from now on (checkouts
                        already created keep their fee).
                      </p>
                    ),
                    confirm: 'Delete tier',
                    action: async () =>
                      (await action.run('Tier deleted.', () => adminWrite('DELETE', `/fees/${t.id}`))) && onDone(),
                  })
                }
              >
                Delete{' '}
                <span class="sr-only">
                  tier {t.currency} from {t.fromAmount}
                </span>
              </button>
            ),
          },
        ]}
        empty="No tiers."
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
  const set = (k: keyof typeof f) => (e: { currentTarget: { value: string } }) =>
    setF({ ...f, [k]: e.currentTarget.value });
  return (
    <form
      class="card-form"
      aria-label="Set a fee tier"
      onSubmit={async (e) => {
        e.preventDefault();
        const body: Record<string, unknown> = {
          currency: f.currency.trim(),
          isPercentage: f.isPercentage === 'true',
          value: f.value.trim(),
        };
        for (const k of ['minValue', 'onChainFee', 'fromAmount', 'merchantId'] as const)
          if (f[k].trim() !== '') body[k] = f[k].trim();
        if (await action.run('Tier set.', () => adminWrite('PUT', '/fees', body))) onDone();
      }}
    >
      <h3>Set a fee tier</h3>
      <div class="grid">
        <Field label="Schedule">
          <select value={f.merchantId} onChange={set('merchantId')}>
            <option value="">default</option>
            {merchants.map((m) => (
              <option value={m.id} key={m.id}>
                override for {m.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Currency">
          <input required value={f.currency} onInput={set('currency')} />
        </Field>
        <Field label="Kind">
          <select value={f.isPercentage} onChange={set('isPercentage')}>
            <option value="true">percentage</option>
            <option value="false">fixed</option>
          </select>
        </Field>
        <Field label="Value">
          <input required inputMode="decimal" value={f.value} onInput={set('value')} />
        </Field>
        <Field label="Minimum fee">
          <input inputMode="decimal" value={f.minValue} onInput={set('minValue')} />
        </Field>
        <Field label="On-chain fee">
          <input inputMode="decimal" value={f.onChainFee} onInput={set('onChainFee')} />
        </Field>
        <Field label="From amount">
          <input inputMode="decimal" value={f.fromAmount} placeholder="0" onInput={set('fromAmount')} />
        </Field>
      </div>
      <button type="submit" class="primary" disabled={action.busy}>
        Set tier
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
  const currencies = [...new Set(tiers.map((t) => t.currency as string))].sort();
  const [merchantId, setMerchantId] = useState('');
  const [currency, setCurrency] = useState('USDT');
  const mid = merchantId || merchants[0]?.id || '';
  const starts = tiers
    .filter((t) => t.currency === currency && (t.merchantId === null || t.merchantId === mid))
    .map((t) => Number(t.fromAmount));
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
      <h2>Fee curve</h2>
      <p class="muted">
        The fee a merchant's preview gives for each amount (logarithmic axes when every fee is above zero), across the
        tiers: each point is the server's own preview.
      </p>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <Field label="Merchant">
          <select value={mid} onChange={(e) => setMerchantId(e.currentTarget.value)}>
            {merchants.map((m) => (
              <option value={m.id} key={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Currency">
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
        <Loading what="the fee curve" />
      ) : curve.data.length === 0 ? null : (
        <div data-testid="fee-curve">
          <Chart
            title={`Fee for ${currency} amounts (${curve.data[0]!.currency})`}
            x={amounts.map(Number)}
            logX
            logY={curve.data.every((p) => Number(p.fee) > 0 && Number(p.serviceFee) > 0)}
            xLabel={`amount (${currency})`}
            yLabel={`fee (${curve.data[0]!.currency})`}
            series={[
              { label: 'fee', color: '#1f5fbf', values: curve.data.map((p) => Number(p.fee)) },
              { label: 'service fee', color: '#b35900', values: curve.data.map((p) => Number(p.serviceFee)) },
            ]}
          />
          <Table
            caption="Where each tier starts on the curve"
            rows={boundaries}
            rowKey={(p) => String(p.amount)}
            columns={[
              { label: 'Amount', num: true, render: (p) => <Amount value={p.amount} unit={currency} /> },
              { label: 'Tier from', num: true, render: (p) => <Amount value={p.tier?.fromAmount} /> },
              { label: 'Schedule', render: (p) => p.scheduleSource },
              { label: 'Fee', num: true, render: (p) => <Amount value={p.fee} unit={p.currency} /> },
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
  const action = useAction();
  return (
    <>
      <h2>Settlement currencies</h2>
      <ErrorNote error={list.error} />
      <Table
        caption="Settlement currencies"
        rows={list.data ?? []}
        rowKey={(r) => `${r.merchantId}-${r.currency}`}
        columns={[
          { label: 'Schedule', render: (r) => r.merchantId ?? 'default' },
          { label: 'Currency', render: (r) => r.currency },
          { label: 'Fees charged in', render: (r) => r.settlementCurrency },
          { label: 'Updated', render: (r) => time(r.updatedAt) },
        ]}
        empty="Fees are charged in the currency asked for."
      />
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await action.run('Settlement currency set.', () =>
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
        <Field label="Currency">
          <input required value={f.currency} onInput={(e) => setF({ ...f, currency: e.currentTarget.value })} />
        </Field>
        <Field label="Charge fees in">
          <input
            required
            value={f.settlementCurrency}
            onInput={(e) => setF({ ...f, settlementCurrency: e.currentTarget.value })}
          />
        </Field>
        <Field label="Merchant id (empty: default)">
          <input value={f.merchantId} onInput={(e) => setF({ ...f, merchantId: e.currentTarget.value })} />
        </Field>
        <button type="submit" disabled={action.busy}>
          Set
        </button>
      </form>
      <ActionStatus action={action} />
    </>
  );
}

function Rates() {
  const list = useAsync(() => admin<Rate[]>('/rates'), []);
  const [f, setF] = useState({ base: '', quote: '', rate: '' });
  const action = useAction();
  return (
    <>
      <h2>Exchange rates</h2>
      <ErrorNote error={list.error} />
      <Table
        caption="Exchange rates"
        rows={list.data ?? []}
        rowKey={(r) => `${r.base}-${r.quote}`}
        columns={[
          { label: 'Pair', render: (r) => `1 ${r.base} =` },
          { label: 'Rate', num: true, render: (r) => <Amount value={r.rate} unit={r.quote} /> },
          { label: 'Source', render: (r) => r.source },
          { label: 'Fetched', render: (r) => time(r.fetchedAt) },
          { label: 'Age', num: true, render: (r) => duration(r.ageSeconds) },
          { label: 'Stale', render: (r) => (r.stale ? <strong>stale: not used</strong> : 'no') },
          { label: 'Pinned', render: (r) => (r.pinned ? 'yes' : 'no') },
        ]}
        empty="No rates."
      />
      <form
        class="inline-form"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            await action.run('Rate set.', () =>
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
        <Field label="Base">
          <input required value={f.base} onInput={(e) => setF({ ...f, base: e.currentTarget.value })} />
        </Field>
        <Field label="Quote">
          <input required value={f.quote} onInput={(e) => setF({ ...f, quote: e.currentTarget.value })} />
        </Field>
        <Field label="Rate (1 base = rate quote)">
          <input
            required
            inputMode="decimal"
            value={f.rate}
            onInput={(e) => setF({ ...f, rate: e.currentTarget.value })}
          />
        </Field>
        <button type="submit" disabled={action.busy}>
          Set rate
        </button>
      </form>
      <ActionStatus action={action} />
    </>
  );
}
