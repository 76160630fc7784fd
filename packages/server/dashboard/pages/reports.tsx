import type { ReportFormat, ReportKind } from '@hostpay/protocol';
import { useState } from 'preact/hooks';
import { Amount, ErrorNote, Field, Loading, Table, useAsync } from '../../ui-kit/ui.js';
import { can, cp, qs, type Session } from '../api.js';
import { isMonth, monthOf, monthRange, rangeProblem, rangeQuery, type DayRange } from '../report-range.js';
import type { Statement, StatementLine } from '../views.js';
import { t } from '../messages.js';

/**
 * Reports: a file of checkouts, payments, payouts, ledger postings or fees over whole UTC days,
 * downloaded straight from the merchant API, and the month's statement per wallet on screen
 * (docs/reports.md). The download is a plain link to the export: the browser sends the session
 * cookie with it, the server's Content-Disposition names the file, and the file streams to disk
 * however long it is, never held in the page's memory.
 */
const KINDS: Record<ReportKind, { label: string; scope: string }> = {
  checkouts: { label: t('reports.kindCheckouts'), scope: 'checkout:read' },
  payments: { label: t('reports.kindPayments'), scope: 'checkout:read' },
  payouts: { label: t('reports.kindPayouts'), scope: 'payouts:read' },
  ledger: { label: t('reports.kindLedger'), scope: 'checkout:read' },
  fees: { label: t('reports.kindFees'), scope: 'checkout:read' },
};
const FORMATS: Record<ReportFormat, string> = { csv: 'CSV', ndjson: 'NDJSON' };

export function Reports({ session }: { session: Session }) {
  return (
    <>
      <h1>{t('reports.title')}</h1>
      <p class="muted">{t('reports.intro')}</p>
      <Download session={session} />
      <MonthStatement />
    </>
  );
}

function Download({ session }: { session: Session }) {
  const kinds = (Object.keys(KINDS) as ReportKind[]).filter((k) => can(session, KINDS[k].scope));
  const [kind, setKind] = useState<ReportKind>(kinds[0] ?? 'checkouts');
  const [format, setFormat] = useState<ReportFormat>('csv');
  const [range, setRange] = useState<DayRange>(() => monthRange(Date.now(), 0));
  const problem = rangeProblem(range);
  const href = problem === undefined ? `/api/v1/cp/reports/${kind}${qs({ ...rangeQuery(range), format })}` : undefined;
  return (
    <section class="card-form" aria-labelledby="download-h">
      <h2 id="download-h">{t('reports.download')}</h2>
      <div class="grid">
        <Field label={t('reports.report')}>
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value as ReportKind)}>
            {kinds.map((k) => (
              <option value={k} key={k}>
                {KINDS[k].label}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('reports.firstDay')}>
          <input
            type="date"
            required
            value={range.from}
            onInput={(e) => setRange({ ...range, from: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('reports.lastDay')}>
          <input
            type="date"
            required
            value={range.to}
            onInput={(e) => setRange({ ...range, to: e.currentTarget.value })}
          />
        </Field>
        <Field label={t('reports.format')}>
          <select value={format} onChange={(e) => setFormat(e.currentTarget.value as ReportFormat)}>
            {(Object.keys(FORMATS) as ReportFormat[]).map((f) => (
              <option value={f} key={f}>
                {FORMATS[f]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div class="actions">
        <button type="button" onClick={() => setRange(monthRange(Date.now(), 0))}>
          {t('reports.thisMonth')}
        </button>
        <button type="button" onClick={() => setRange(monthRange(Date.now(), -1))}>
          {t('reports.lastMonth')}
        </button>
      </div>
      {href === undefined ? (
        <p class="warning" data-testid="range-problem">
          {problem}
        </p>
      ) : (
        <a class="button primary" href={href} download data-testid="download">
          {t('reports.downloadLink', { kind, format: FORMATS[format] })}
        </a>
      )}
      <p class="muted">{t('reports.rangeNote', { from: range.from, to: range.to })}</p>
    </section>
  );
}

function MonthStatement() {
  const [month, setMonth] = useState(() => monthOf(Date.now()));
  const valid = isMonth(month);
  const statement = useAsync(
    () => (valid ? cp<Statement>('/reports/statement', { month }) : Promise.resolve(undefined)),
    [month, valid],
  );
  return (
    <section aria-labelledby="statement-h">
      <h2 id="statement-h">{t('reports.statement')}</h2>
      <div class="filters">
        <Field label={t('reports.month')} hint={t('reports.monthHint')}>
          <input type="month" required value={month} onInput={(e) => setMonth(e.currentTarget.value)} />
        </Field>
      </div>
      <ErrorNote error={statement.error} />
      {!valid ? (
        <p class="warning">{t('reports.chooseMonth')}</p>
      ) : statement.data === undefined ? (
        statement.error ? null : (
          <Loading what={t('reports.theStatement')} />
        )
      ) : (
        <Table<StatementLine>
          caption={t('reports.statementCaption', { month: statement.data.month })}
          rows={statement.data.wallets}
          rowKey={(w) => w.walletId}
          empty={t('reports.noWallet')}
          columns={[
            {
              label: t('reports.wallet'),
              render: (w) => (
                <>
                  {t('reports.assetOnChain', { asset: w.asset, chain: w.chain })}{' '}
                  <code class="muted">{w.walletId}</code>
                </>
              ),
            },
            { label: t('reports.opening'), num: true, render: (w) => <Amount value={w.opening} unit={w.asset} /> },
            { label: t('reports.credits'), num: true, render: (w) => <Amount value={w.credits} unit={w.asset} /> },
            { label: t('reports.debits'), num: true, render: (w) => <Amount value={w.debits} unit={w.asset} /> },
            { label: t('reports.fees'), num: true, render: (w) => <Amount value={w.fees} unit={w.asset} /> },
            { label: t('reports.closing'), num: true, render: (w) => <Amount value={w.closing} unit={w.asset} /> },
            {
              label: t('reports.frozenAtClose'),
              num: true,
              render: (w) => <Amount value={w.frozenAtClose} unit={w.asset} />,
            },
          ]}
        />
      )}
      <p class="muted">{t('reports.balanceNote')}</p>
    </section>
  );
}
