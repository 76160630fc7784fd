import type { Command } from 'commander';
import { SCOPES } from '@hostpay/protocol';
import { withServices } from '../context.js';
import { printResult, type Io } from '../output.js';
import { commaList, integerIn, withStoreOptions, type StoreOptions } from '../options.js';

interface KeyCreateOptions extends StoreOptions {
  merchant: string;
  scopes?: string[];
  rateLimit?: number;
  expiresAt?: string;
  allowIp?: string[];
  label?: string;
}

export function registerKey(program: Command, io: Io): void {
  const key = program.command('key').description('manage API keys');

  withStoreOptions(key.command('create').description('create an API key for a merchant; the secret is shown once'))
    .requiredOption('--merchant <id>', 'merchant the key acts for')
    .option('--scopes <list>', `comma-separated scopes (default: all: ${SCOPES.join(',')})`, commaList)
    .option('--rate-limit <n>', 'requests per minute for this key (default: the server setting)', integerIn(1, 1_000_000_000))
    .option('--expires-at <time>', 'ISO 8601 time after which the key stops working (default: never)')
    .option('--allow-ip <list>', 'comma-separated IP addresses or CIDR blocks allowed to use it (default: any)', commaList)
    .option('--label <text>', 'note for operators, e.g. "checkout backend"')
    .action(async (opts: KeyCreateOptions) => {
      const created = await withServices(io, opts.dataDir, (s, audit) =>
        s.admin.createApiKey(
          opts.merchant,
          { scopes: opts.scopes, rateLimitPerMinute: opts.rateLimit, expiresAt: opts.expiresAt, ipAllowList: opts.allowIp, label: opts.label },
          audit,
        ),
      );
      printResult(io, opts.json, created, () =>
        [
          `API key     ${created.apiKey}`,
          `API secret  ${created.apiSecret}`,
          `merchant    ${created.merchantId}`,
          `scopes      ${created.scopes.join(', ')}`,
          `rate limit  ${created.rateLimitPerMinute === null ? 'server default' : `${created.rateLimitPerMinute}/min`}`,
          ...(created.expiresAt === null ? [] : [`expires     ${created.expiresAt}`]),
          ...(created.ipAllowList === null ? [] : [`allowed IPs ${created.ipAllowList.join(', ')}`]),
          'The secret is shown only this once and stored encrypted: save it now, it cannot be shown again.',
        ].join('\n'),
      );
    });

  withStoreOptions(key.command('revoke').description('revoke an API key at once (its bearer tokens stop working too)'))
    .argument('<key-id>', 'the API key, e.g. hp_...')
    .action(async (keyId: string, opts: StoreOptions) => {
      const revoked = await withServices(io, opts.dataDir, (s, audit) => s.admin.revokeApiKey(keyId, audit));
      printResult(io, opts.json, revoked, () => `revoked API key ${revoked.id} (at ${revoked.revokedAt ?? 'unknown time'})`);
    });
}
