import { Option, type Command } from 'commander';
import type { RateSource } from '../admin/views.js';
import { withBackend } from '../admin/open-backend.js';
import { withAdminOptions, withWriteOptions, type AdminOptions, type WriteOptions } from '../admin/options.js';
import { orDash, printAdmin, printList, yesNo } from '../admin/print.js';
import { integerIn } from '../options.js';
import { UsageError, type Io } from '../output.js';
import { registerRateSpread } from './rate-spread.js';

interface SourceOptions extends WriteOptions {
  kind: string;
  pairs: string;
  baseUrl?: string;
  refreshSeconds?: number;
  maxAgeSeconds?: number;
  disabled?: boolean;
  enabled?: boolean;
}

const describeSource = (s: RateSource) =>
  `rate source ${s.id} (${s.kind}${s.baseUrl === null ? '' : ` at ${s.baseUrl}`}): ${s.pairs.join(', ')}, every ${s.refreshSeconds} s, quoted up to ${s.maxAgeSeconds} s${s.enabled ? '' : ' (disabled)'}`;

/** Rates convert a checkout amount into the fee currency (`fee set --fee-currency`, `settlement set`); sources keep them fresh. */
export function registerRate(program: Command, io: Io): void {
  const rate = program
    .command('rate')
    .description('manage conversion rates: set or remove them by hand, or feed them from rate sources');

  withWriteOptions(
    rate
      .command('set')
      .description('set the rate: 1 BASE = RATE QUOTE (the inverse is derived); pins the pair until removed'),
  )
    .argument('<base>', 'e.g. EUR')
    .argument('<quote>', 'e.g. USDT')
    .argument('<rate>', 'positive decimal, e.g. 1.0842')
    .option('--source <text>', 'where the rate comes from, for the audit log (default: manual)')
    .action(async (base: string, quote: string, value: string, opts: WriteOptions & { source?: string }) => {
      const set = await withBackend(io, opts, (b) =>
        b.rates.set({ base, quote, rate: value, source: opts.source }, opts),
      );
      printAdmin(io, opts.json, set, () => `rate set: 1 ${set.base} = ${set.rate} ${set.quote}`);
    });

  withAdminOptions(rate.command('list').description('list conversion rates with their age')).action(
    async (opts: AdminOptions) => {
      const rates = await withBackend(io, opts, (b) => b.rates.list());
      printList(io, opts.json, rates, {
        columns: [
          { header: 'BASE' },
          { header: 'QUOTE' },
          { header: 'RATE', align: 'decimal' },
          { header: 'SOURCE' },
          { header: 'FETCHED' },
          { header: 'AGE' },
          { header: 'MAX AGE' },
          { header: 'STALE' },
          { header: 'PINNED' },
        ],
        row: (r) => [
          r.base,
          r.quote,
          r.rate,
          r.source,
          r.fetchedAt,
          `${r.ageSeconds} s`,
          r.maxAgeSeconds === null ? '-' : `${r.maxAgeSeconds} s`,
          yesNo(r.stale),
          yesNo(r.pinned),
        ],
        empty: 'no rates: set one with hostpay rate set BASE QUOTE RATE, or add a source (hostpay rates source set)',
      });
    },
  );

  withWriteOptions(rate.command('remove').description("remove a stored rate (an operator's pin: the feeds take over)"))
    .argument('<base>', 'e.g. BTC')
    .argument('<quote>', 'e.g. EUR')
    .action(async (base: string, quote: string, opts: WriteOptions) => {
      const r = await withBackend(io, opts, (b) => b.rates.remove(base, quote, opts));
      printAdmin(
        io,
        opts.json,
        r,
        () =>
          `rate ${r.base}/${r.quote} removed${r.replacedBy === null ? '' : `; the feeds' rate is ${r.replacedBy.rate} (${r.replacedBy.source})`}`,
      );
    });

  withWriteOptions(rate.command('pair').description("a pair's feed rules: cross rates, outlier share"))
    .argument('<base>', 'e.g. EUR')
    .argument('<quote>', 'e.g. BTC')
    .addOption(
      new Option('--allow-cross', 'derive it through a third currency when no source provides it').conflicts('noCross'),
    )
    .addOption(new Option('--no-cross', 'never derive it (the default)'))
    .option('--max-deviation <percent>', 'drop a source further than this from the median (default 5)')
    .action(
      async (
        base: string,
        quote: string,
        opts: WriteOptions & { allowCross?: boolean; cross?: boolean; maxDeviation?: string },
      ) => {
        const allowCross = opts.allowCross ? true : opts.cross === false ? false : undefined;
        const p = await withBackend(io, opts, (b) =>
          b.rates.setPair(base, quote, { allowCross, maxDeviationPercent: opts.maxDeviation }, opts),
        );
        printAdmin(
          io,
          opts.json,
          p,
          () =>
            `pair ${p.base}/${p.quote}: cross rates ${p.allowCross ? 'allowed' : 'not allowed'}, sources further than ${p.maxDeviationPercent}% from the median dropped`,
        );
      },
    );

  registerRateSpread(rate, io);

  // `hostpay rates source …`: the feeds' sources, beside the rates themselves.
  const source = program
    .command('rates')
    .description('rate feeds (docs/rates.md)')
    .command('source')
    .description('rate sources: coinbase, kraken, binance, ecb (demo on a sandbox)');

  withWriteOptions(source.command('set').description('create or change a rate source'))
    .argument('<id>', 'a name of your choice, e.g. coinbase')
    .requiredOption('--kind <kind>', 'coinbase, kraken, binance, ecb or demo')
    .requiredOption('--pairs <pairs>', 'comma-separated BASE/QUOTE pairs, e.g. BTC/EUR,ETH/EUR')
    .option('--base-url <url>', "the provider's address, or your proxy's (default the provider's own)")
    .option('--refresh-seconds <n>', 'how often it is asked (default 60; ecb 3600)', integerIn(5, 86_400))
    .option(
      '--max-age-seconds <n>',
      'how long its rates may be quoted (default 600; ecb 4 days)',
      integerIn(5, 2_592_000),
    )
    .addOption(new Option('--disabled', 'keep the settings, stop asking').conflicts('enabled'))
    .addOption(new Option('--enabled', 'ask it (again)'))
    .action(async (id: string, opts: SourceOptions) => {
      const pairs = opts.pairs
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      if (pairs.length === 0) throw new UsageError('--pairs needs at least one BASE/QUOTE pair, e.g. BTC/EUR');
      const s = await withBackend(io, opts, (b) =>
        b.rates.sources.set(
          id,
          {
            kind: opts.kind,
            pairs,
            baseUrl: opts.baseUrl,
            refreshSeconds: opts.refreshSeconds,
            maxAgeSeconds: opts.maxAgeSeconds,
            enabled: opts.disabled ? false : opts.enabled ? true : undefined,
          },
          opts,
        ),
      );
      printAdmin(io, opts.json, s, () => describeSource(s));
    });

  withAdminOptions(source.command('list').description('list rate sources with their health')).action(
    async (opts: AdminOptions) => {
      const sources = await withBackend(io, opts, (b) => b.rates.sources.list());
      printList(io, opts.json, sources, {
        columns: [
          { header: 'ID' },
          { header: 'KIND' },
          { header: 'PAIRS' },
          { header: 'EVERY' },
          { header: 'STATE' },
          { header: 'LAST SUCCESS' },
          { header: 'LATENCY' },
          { header: 'LAST ERROR' },
        ],
        row: (s) => [
          s.id,
          s.kind,
          s.pairs.join(','),
          `${s.refreshSeconds} s`,
          s.health.state,
          orDash(s.health.lastSuccessAt),
          s.health.latencyMs === null ? '-' : `${s.health.latencyMs} ms`,
          orDash(s.health.lastError),
        ],
        empty: 'no rate source: hostpay rates source set coinbase --kind coinbase --pairs BTC/EUR,ETH/EUR',
      });
    },
  );

  withWriteOptions(
    source.command('remove').description('remove a rate source (its rates age out or come from the others)'),
  )
    .argument('<id>', 'the source id')
    .action(async (id: string, opts: WriteOptions) => {
      const r = await withBackend(io, opts, (b) => b.rates.sources.remove(id, opts));
      printAdmin(io, opts.json, r, () => `rate source ${r.id} removed`);
    });
}
