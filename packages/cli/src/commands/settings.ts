import type { Command } from 'commander';
import type { MerchantSettings, UpdateSettingsParams } from '@hostpay/client';
import { merchantCommand, withClient, type MerchantFlags } from '../merchant-command.js';
import { printResult, UsageError, type Io } from '../output.js';
import { IDEMPOTENCY_HELP } from './link.js';

interface SetFlags extends MerchantFlags {
  brandColor?: string;
  accentColor?: string;
  language?: string;
  displayName?: string;
  idempotencyKey?: string;
}

/** '' or `none` clears a setting. */
const orNull = (text: string | undefined): string | null | undefined => (text === '' || text === 'none' ? null : text);

/** One `name: value` line per setting; a logo is named, not printed (it may be 60,000 characters). */
export function settingsText(s: MerchantSettings): string {
  const shown = (v: unknown) => (v === null ? '-' : String(v));
  const logo =
    s.logoUrl === null
      ? '-'
      : s.logoUrl.startsWith('data:')
        ? `(inline image, ${s.logoUrl.length} characters)`
        : s.logoUrl;
  return Object.entries({ ...s, logoUrl: logo })
    .map(([k, v]) => `${k}: ${k === 'logoUrl' ? v : shown(v)}`)
    .join('\n');
}

/**
 * `hostpay settings get|set`: the merchant's settings through the merchant API (GET and PATCH
 * /api/v1/cp/settings, scopes checkout:read and checkout:write): the page colours, the default
 * language and the display name from the command line; the rest from the dashboard.
 */
export function registerSettings(program: Command, io: Io): void {
  const settings = program
    .command('settings')
    .description(
      "the merchant's settings: page colours, default language, display name (GET/PATCH /api/v1/cp/settings)",
    );

  merchantCommand(settings.command('get').description("the merchant's settings (GET /api/v1/cp/settings)")).action(
    async (opts: MerchantFlags) => {
      const s = await withClient(io, opts, (c) => c.settings.get({ merchantId: opts.merchant }));
      printResult(io, opts.json, s, () => settingsText(s));
    },
  );

  merchantCommand(
    settings
      .command('set')
      .description('change settings (PATCH /api/v1/cp/settings); only the options given change')
      .option(
        '--brand-color <hex>',
        'buttons and top band, white text on it: #rgb or #rrggbb, at least 4.5:1 ("none" clears)',
      )
      .option(
        '--accent-color <hex>',
        'links and focus rings: #rgb or #rrggbb, at least 4.5:1 on the light page ("none" clears)',
      )
      .option(
        '--language <code>',
        'default payer language: en, es, pt-BR, fr, de, it, tr, ru, zh-CN, ja, ar ("none" clears)',
      )
      .option('--display-name <text>', 'the name the payment page shows ("" clears)')
      .option('--idempotency-key <key>', IDEMPOTENCY_HELP),
  ).action(async (opts: SetFlags) => {
    const given = {
      brandColor: orNull(opts.brandColor),
      accentColor: orNull(opts.accentColor),
      language: orNull(opts.language),
      displayName: opts.displayName === '' ? null : opts.displayName,
    };
    const params: UpdateSettingsParams = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
    if (Object.keys(params).length === 0)
      throw new UsageError(
        'settings set needs at least one of --brand-color, --accent-color, --language, --display-name',
      );
    const s = await withClient(io, opts, (c) =>
      c.settings.update(params, { merchantId: opts.merchant, idempotencyKey: opts.idempotencyKey }),
    );
    printResult(io, opts.json, s, () => `settings saved\n${settingsText(s)}`);
  });
}
