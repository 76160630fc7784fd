import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_SCOPES, SCOPES } from '@hostpay/protocol';
import type { ApiKey, CreatedApiKey, KeySettings, KeyStatus } from '../admin/backend.js';
import { withBackend } from '../admin/open-backend.js';
import {
  pageRequest,
  withAdminOptions,
  withPageOptions,
  withWriteOptions,
  type AdminOptions,
  type PageOptions,
  type WriteOptions,
} from '../admin/options.js';
import { orDash, printAdmin, printPage } from '../admin/print.js';
import { UsageError, type Io } from '../output.js';
import { commaList, integerIn } from '../options.js';
import { renderPairs } from '../table.js';
import { registerKeyGrants } from './key-grants.js';

/** As parsed; `key update` also takes the words that clear a setting ("default", "never", "any", ""). */
interface KeySettingFlags {
  scopes?: string[];
  rateLimit?: number | 'default';
  expiresAt?: string;
  allowIp?: string[] | 'any';
  label?: string;
  requireSignatureV2?: boolean;
}

export function registerKey(program: Command, io: Io): void {
  const key = program.command('key').description('manage API keys');

  withWriteOptions(key.command('create').description('create an API key for a merchant; the secret is shown once'))
    .requiredOption('--merchant <id>', 'merchant the key acts for')
    .option(
      '--scopes <list>',
      `comma-separated scopes (default: all but payouts:write: ${DEFAULT_SCOPES.join(',')})`,
      commaList,
    )
    .option(
      '--rate-limit <n>',
      'requests per minute for this key (default: the server setting)',
      integerIn(1, 1_000_000_000),
    )
    .option('--expires-at <time>', 'ISO 8601 time after which the key stops working (default: never)')
    .option(
      '--allow-ip <list>',
      'comma-separated IP addresses or CIDR blocks allowed to use it (default: any)',
      commaList,
    )
    .option('--label <text>', 'note for operators, e.g. "checkout backend"')
    .option('--require-signature-v2', 'refuse version-1 signatures for this key (version 2 also signs method and path)')
    .action(async (opts: WriteOptions & KeySettingFlags & { merchant: string }) => {
      const created = await withBackend(io, opts, (b) => b.keys.create(opts.merchant, settings(opts), opts));
      printAdmin(io, opts.json, created, () => describeCreated(created));
    });

  withPageOptions(
    withAdminOptions(key.command('list').description('list API keys (never their secrets), oldest first')),
  )
    .option('--merchant <id>', "only this merchant's keys")
    .addOption(new Option('--status <status>', 'only keys with this status').choices(['active', 'revoked']))
    .action(async (opts: AdminOptions & PageOptions & { merchant?: string; status?: KeyStatus }) => {
      const page = await withBackend(io, opts, (b) =>
        b.keys.list({ ...pageRequest(opts), merchantId: opts.merchant, status: opts.status }),
      );
      printPage(io, opts.json, page, {
        columns: [
          { header: 'KEY' },
          { header: 'MERCHANT' },
          { header: 'STATUS' },
          { header: 'SCOPES' },
          { header: 'EXPIRES' },
          { header: 'LAST USED' },
          { header: 'LABEL' },
        ],
        row: (k) => [
          k.id,
          k.merchantId,
          k.status,
          k.scopes.join(','),
          orDash(k.expiresAt),
          orDash(k.lastUsedAt),
          orDash(k.label),
        ],
        empty: 'no API keys: create one with hostpay key create --merchant ID',
      });
    });

  withAdminOptions(key.command('get').description('show one API key (never its secret)'))
    .argument('<key-id>', 'the API key, e.g. hp_...')
    .action(async (id: string, opts: AdminOptions) => {
      const k = await withBackend(io, opts, (b) => b.keys.get(id));
      printAdmin(io, opts.json, k, () => describeKey(k));
    });

  withWriteOptions(
    key
      .command('update')
      .description("change a key's scopes, rate limit, expiry, IP allow-list or label (the secret stays)"),
  )
    .argument('<key-id>', 'the API key, e.g. hp_...')
    .option('--scopes <list>', `comma-separated scopes, replacing the current ones (${SCOPES.join(',')})`, commaList)
    .option(
      '--rate-limit <n>',
      'requests per minute, or "default" for the server setting',
      orWord('default', integerIn(1, 1_000_000_000)),
    )
    .option('--expires-at <time>', 'ISO 8601 time, or "never"')
    .option('--allow-ip <list>', 'comma-separated IPs or CIDR blocks, or "any"', orWord('any', commaList))
    .option('--label <text>', 'note for operators ("" removes it)')
    .option(
      '--require-signature-v2',
      'refuse version-1 signatures for this key: only signature-version 2 (method and path signed) is accepted',
    )
    .option('--no-require-signature-v2', 'accept version-1 signatures again')
    .action(async (id: string, opts: WriteOptions & KeySettingFlags) => {
      const change = settings(opts);
      if (Object.values(change).every((v) => v === undefined)) {
        throw new UsageError(
          'key update needs at least one of --scopes, --rate-limit, --expires-at, --allow-ip, --label, --[no-]require-signature-v2',
        );
      }
      const k = await withBackend(io, opts, (b) => b.keys.update(id, change, opts));
      printAdmin(io, opts.json, k, () => `updated API key ${k.id}\n${describeKey(k)}`);
    });

  withWriteOptions(key.command('revoke').description('revoke an API key at once (its bearer tokens stop working too)'))
    .argument('<key-id>', 'the API key, e.g. hp_...')
    .action(async (id: string, opts: WriteOptions) => {
      const revoked = await withBackend(io, opts, (b) => b.keys.revoke(id, opts));
      printAdmin(
        io,
        opts.json,
        revoked,
        () => `revoked API key ${revoked.id} (at ${revoked.revokedAt ?? 'unknown time'})`,
      );
    });

  withWriteOptions(
    key
      .command('rotate')
      .description('issue a new key with the same settings; the old one keeps working until the overlap ends'),
  )
    .argument('<key-id>', 'the API key to replace, e.g. hp_...')
    .option(
      '--overlap-until <time>',
      'ISO 8601 time until which the old key still works, at most 30 days ahead (default: 24 h from now)',
    )
    .addHelpText(
      'after',
      '\nDeploy the new key and secret, then let the old key expire (or revoke it once nothing uses it).',
    )
    .action(async (id: string, opts: WriteOptions & { overlapUntil?: string }) => {
      const rotation = await withBackend(io, opts, (b) => b.keys.rotate(id, opts.overlapUntil, opts));
      printAdmin(
        io,
        opts.json,
        rotation,
        () =>
          `${describeCreated(rotation.new)}\nold key ${rotation.old.id} keeps working until ${rotation.old.expiresAt ?? 'revoked'}`,
      );
    });

  registerKeyGrants(key, io);
}

/**
 * The flags that were given, as key settings (absent flags stay absent: nothing changes); the
 * clearing words become null. (A commander parser cannot return null: it would read it as "".)
 */
function settings(opts: KeySettingFlags): KeySettings {
  const clear = <T>(value: T | undefined, word: string): T | null | undefined => (value === word ? null : value);
  return {
    scopes: opts.scopes,
    rateLimitPerMinute: clear(opts.rateLimit, 'default') as number | null | undefined,
    expiresAt: clear(opts.expiresAt, 'never'),
    ipAllowList: clear(opts.allowIp, 'any') as string[] | null | undefined,
    label: clear(opts.label, ''),
    requireSignatureV2: opts.requireSignatureV2,
  };
}

/** Parses a value, or passes a keyword through unchanged. */
function orWord<T, W extends string>(word: W, parse: (text: string) => T) {
  return (text: string): T | W => {
    if (text === word) return word;
    try {
      return parse(text);
    } catch (err) {
      if (err instanceof InvalidArgumentError) throw new InvalidArgumentError(`${err.message}, or ${word}`);
      throw err;
    }
  };
}

function describeKey(k: ApiKey): string {
  return renderPairs([
    ['API key', k.id],
    ['merchant', k.merchantId],
    ['status', k.status + (k.revokedAt === null ? '' : ` (revoked ${k.revokedAt})`)],
    ['scopes', k.scopes.join(', ')],
    ['rate limit', k.rateLimitPerMinute === null ? 'server default' : `${k.rateLimitPerMinute}/min`],
    ['expires', k.expiresAt ?? 'never'],
    ['allowed IPs', k.ipAllowList === null ? 'any' : k.ipAllowList.join(', ')],
    ['signatures', k.requireSignatureV2 ? 'version 2 only' : 'version 1 or 2'],
    ['label', orDash(k.label)],
    ['created', k.createdAt],
    ['last used', k.lastUsedAt ?? 'never'],
    ...(k.rotatedTo === null ? [] : [['rotated to', k.rotatedTo] as const]),
  ]);
}

function describeCreated(created: CreatedApiKey): string {
  return [
    `API key     ${created.apiKey}`,
    `API secret  ${created.apiSecret}`,
    `merchant    ${created.merchantId}`,
    `scopes      ${created.scopes.join(', ')}`,
    `rate limit  ${created.rateLimitPerMinute === null ? 'server default' : `${created.rateLimitPerMinute}/min`}`,
    ...(created.expiresAt === null ? [] : [`expires     ${created.expiresAt}`]),
    ...(created.ipAllowList === null ? [] : [`allowed IPs ${created.ipAllowList.join(', ')}`]),
    ...(created.requireSignatureV2 ? ['signatures  version 2 only (signature-version: 2)'] : []),
    'The secret is shown only this once and stored encrypted: save it now, it cannot be shown again.',
  ].join('\n');
}
