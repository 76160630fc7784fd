import { checkEmail } from '@hostpay/protocol';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { resolve } from 'node:path';

/** A UTC time to the second, as the deprecation dates are written. */
const ISO_SECOND = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$';

/**
 * Every setting, its environment variable, type and default, in one schema. Parsed once at
 * start-up; a bad value stops the process with a message naming the variable.
 */
export const ConfigSchema = Type.Object({
  host: Type.String({ default: '127.0.0.1', env: 'HOSTPAY_HOST', description: 'address to listen on' }),
  port: Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: 8080,
    env: 'HOSTPAY_PORT',
    description: 'port to listen on (0: any free port)',
  }),
  metricsPort: Type.Integer({
    minimum: -1,
    maximum: 65535,
    default: -1,
    env: 'HOSTPAY_METRICS_PORT',
    description:
      'port of a listener that serves only GET /metrics, without authentication, on HOSTPAY_METRICS_HOST (0: any free port); -1: none, and /metrics on the service port answers only to operator tokens',
  }),
  metricsHost: Type.String({
    default: '127.0.0.1',
    env: 'HOSTPAY_METRICS_HOST',
    description: 'address of the metrics listener (loopback: only a scraper on this host reaches it)',
  }),
  dataDir: Type.String({
    minLength: 1,
    default: './.hostpay',
    env: 'HOSTPAY_DATA_DIR',
    description: 'directory of the embedded SQLite store and the demo master key',
  }),
  databaseUrl: Type.String({
    default: '',
    env: 'HOSTPAY_DATABASE_URL',
    description:
      'empty: embedded SQLite file <dataDir>/hostpay.db; `sqlite:<path>` for another file; `postgres://user:pass@host:5432/db` for PostgreSQL',
  }),
  databaseSchema: Type.String({
    default: '',
    pattern: '^([a-z_][a-z0-9_]{0,62})?$',
    env: 'HOSTPAY_DATABASE_SCHEMA',
    description: 'PostgreSQL schema to use (created if missing); empty: the server default (public)',
  }),
  databasePoolSize: Type.Integer({
    minimum: 1,
    maximum: 200,
    default: 10,
    env: 'HOSTPAY_DATABASE_POOL_SIZE',
    description: 'PostgreSQL connections per instance',
  }),
  databaseTimeoutMs: Type.Integer({
    minimum: 100,
    maximum: 60000,
    default: 2000,
    env: 'HOSTPAY_DATABASE_TIMEOUT_MS',
    description:
      'PostgreSQL connect timeout; twice it is the statement timeout and 2.5 times it the client read timeout (a database that stops answering): past them a request gets 503 UNAVAILABLE instead of hanging',
  }),
  autoMigrate: Type.Boolean({
    default: true,
    env: 'HOSTPAY_AUTO_MIGRATE',
    description:
      'apply pending migrations when the server or a command opens the store; false: run `hostpay migrate` yourself',
  }),
  redisUrl: Type.String({
    default: '',
    env: 'HOSTPAY_REDIS_URL',
    description:
      'redis://… to share rate limits and cache invalidation across instances; empty: in-process (one instance)',
  }),
  redisPrefix: Type.String({
    default: 'hostpay:',
    pattern: '^[A-Za-z0-9:_-]{1,64}$',
    env: 'HOSTPAY_REDIS_PREFIX',
    description: 'prefix of every Redis key and channel, so deployments (or test runs) can share a Redis',
  }),
  masterKey: Type.String({
    default: '',
    env: 'HOSTPAY_MASTER_KEY',
    description:
      '32-byte key (base64 or 64 hex chars) that encrypts API secrets at rest; demo mode generates <dataDir>/master.key',
  }),
  masterKeyPrevious: Type.String({
    default: '',
    env: 'HOSTPAY_MASTER_KEY_PREVIOUS',
    description: 'comma-separated earlier master keys, still accepted for opening secrets during a rotation',
  }),
  adminToken: Type.String({
    default: '',
    env: 'HOSTPAY_ADMIN_TOKEN',
    description:
      'operator token for /admin/v1 (operator name `admin`); at least 32 visible ASCII characters, 160 bits by its alphabet and varied like random text (openssl rand -hex 32); empty and no HOSTPAY_ADMIN_TOKENS: admin API disabled',
  }),
  adminTokens: Type.String({
    default: '',
    env: 'HOSTPAY_ADMIN_TOKENS',
    description: 'several named operator tokens, `name:token,name:token`; the name is recorded in the audit log',
  }),
  adminIpAllowList: Type.String({
    default: '',
    maxLength: 4096,
    env: 'HOSTPAY_ADMIN_IP_ALLOW_LIST',
    description:
      'comma-separated addresses or CIDR ranges (10.0.0.0/8,2001:db8::/32) the admin API and the operator console accept requests from; empty: any address',
  }),
  console: Type.Boolean({
    default: false,
    env: 'HOSTPAY_CONSOLE',
    description:
      'serve the operator console at /console (needs an operator token); off unless set; serve --demo turns it on',
  }),
  consoleIdleMinutes: Type.Integer({
    minimum: 1,
    maximum: 1440,
    default: 30,
    env: 'HOSTPAY_CONSOLE_IDLE_MINUTES',
    description: 'a console session ends after this many minutes without a request',
  }),
  dashboardIdleMinutes: Type.Integer({
    minimum: 1,
    maximum: 1440,
    default: 30,
    env: 'HOSTPAY_DASHBOARD_IDLE_MINUTES',
    description:
      'a merchant dashboard session ends after this many minutes without a request (and 12 hours after sign-in in any case)',
  }),
  timestampToleranceSeconds: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 60,
    env: 'HOSTPAY_TIMESTAMP_TOLERANCE_SECONDS',
    description: 'accepted difference between the timestamp header and the server clock',
  }),
  signatureV1DeprecatedAt: Type.String({
    default: '2026-11-23T00:00:00Z',
    pattern: ISO_SECOND,
    env: 'HOSTPAY_SIGNATURE_V1_DEPRECATED_AT',
    description:
      'when version-1 signatures were deprecated (UTC, `YYYY-MM-DDTHH:MM:SSZ`): every answer to a request signed with version 1 carries `Deprecation: @<unix seconds>` (RFC 9745)',
  }),
  signatureV1SunsetAt: Type.String({
    default: '2027-06-01T00:00:00Z',
    pattern: ISO_SECOND,
    env: 'HOSTPAY_SIGNATURE_V1_SUNSET_AT',
    description:
      'the date announced in `Sunset` (RFC 8594) on version-1 requests, after which version 1 may be refused; nothing changes by itself then: an operator makes keys require version 2',
  }),
  signatureV1DocsUrl: Type.String({
    default: '/docs#migrating-from-signature-version-1',
    minLength: 1,
    pattern: '^[^<>\\s]+$',
    env: 'HOSTPAY_SIGNATURE_V1_DOCS_URL',
    description:
      'the migration guide named by `Link: <…>; rel="deprecation"` on version-1 requests (a path is relative to this server, whose /docs carries the guide)',
  }),
  rateLimitPerMinute: Type.Integer({
    minimum: 1,
    default: 600,
    env: 'HOSTPAY_RATE_LIMIT_PER_MINUTE',
    description: 'default requests per minute per API key (a key can override it)',
  }),
  authFailureLimitPerMinute: Type.Integer({
    minimum: 1,
    default: 30,
    env: 'HOSTPAY_AUTH_FAILURE_LIMIT_PER_MINUTE',
    description: 'failed authentications per minute per client address before 429',
  }),
  linkCheckoutsPerAddressPerMinute: Type.Integer({
    minimum: 1,
    default: 10,
    env: 'HOSTPAY_LINK_CHECKOUTS_PER_ADDRESS_PER_MINUTE',
    description:
      'checkouts the public payment link and invoice pages make per minute per client address (IPv6 per /64); each takes fresh deposit addresses',
  }),
  linkCheckoutsPerLinkPerMinute: Type.Integer({
    minimum: 1,
    default: 60,
    env: 'HOSTPAY_LINK_CHECKOUTS_PER_LINK_PER_MINUTE',
    description: 'checkouts one payment link or invoice makes per minute, whoever asks',
  }),
  linkCheckoutsPerMerchantPerHour: Type.Integer({
    minimum: 1,
    default: 1000,
    env: 'HOSTPAY_LINK_CHECKOUTS_PER_MERCHANT_PER_HOUR',
    description: "checkouts a merchant's payment links and invoice pages make per hour together",
  }),
  tokenTtlSeconds: Type.Integer({
    minimum: 60,
    maximum: 86400,
    default: 3600,
    env: 'HOSTPAY_TOKEN_TTL_SECONDS',
    description: 'default bearer token lifetime',
  }),
  trustProxyHops: Type.Integer({
    minimum: 0,
    maximum: 10,
    default: 0,
    env: 'HOSTPAY_TRUST_PROXY_HOPS',
    description:
      'number of proxies of yours in front of the server: the client address is taken that many hops from the right of X-Forwarded-For (0: the socket address; never trust more hops than you run)',
  }),
  publicUrl: Type.String({
    default: '',
    env: 'HOSTPAY_PUBLIC_URL',
    description:
      'public base URL of this server (https://pay.example.com), used in checkout page links; empty: the listen address',
  }),
  sandbox: Type.Boolean({
    default: false,
    env: 'HOSTPAY_SANDBOX',
    description:
      'sandbox (set by serve --demo): authentication errors carry diagnostics (SHA-256 and length of the string the server verified, clock skew); never in production',
  }),
  webhookLeaseSeconds: Type.Integer({
    minimum: 3,
    maximum: 3600,
    default: 10,
    env: 'HOSTPAY_WEBHOOK_LEASE_SECONDS',
    description:
      "how long a webhook endpoint stays with the instance serving it without a sign of life; renewed every third of it while sending, so another instance takes over a dead one's deliveries after at most this long (a restarted instance takes its own back at once)",
  }),
  smtpUrl: Type.String({
    default: '',
    pattern: '^((smtp|smtps)://.*)?$',
    env: 'HOSTPAY_SMTP_URL',
    description:
      'the mail transport: `smtp://user:pass@host:587` (STARTTLS required before AUTH, except to a loopback host), `smtps://user:pass@host:465` (TLS from the start); never logged; empty: mail is kept, not sent, and shown at GET /admin/v1/mail and in the console (docs/mail.md)',
  }),
  mailFrom: Type.String({
    default: '',
    env: 'HOSTPAY_MAIL_FROM',
    description:
      "the sender address of every mail (`billing@pay.example.com`), the merchant's name as its phrase; its domain ends every Message-ID; empty: `hostpay@` the host of HOSTPAY_PUBLIC_URL (or localhost)",
  }),
  mailPayerDailyLimit: Type.Integer({
    minimum: 0,
    maximum: 1000000,
    default: 200,
    env: 'HOSTPAY_MAIL_PAYER_DAILY_LIMIT',
    description:
      'most mails to payers per merchant in 24 hours (receipts, invoices, refund links); past it a mail is recorded as `limited`, not sent',
  }),
  mailRecipientHourlyLimit: Type.Integer({
    minimum: 1,
    maximum: 100000,
    default: 20,
    env: 'HOSTPAY_MAIL_RECIPIENT_HOURLY_LIMIT',
    description:
      'most mails to one address in an hour (security notices excepted), so a loop cannot mail-bomb anyone; past it a mail is recorded as `limited`',
  }),
  chainWatchFailingRounds: Type.Integer({
    minimum: 1,
    maximum: 1000,
    default: 5,
    env: 'HOSTPAY_CHAIN_WATCH_FAILING_ROUNDS',
    description:
      'rounds a chain watch may fail in a row (node errors, blocks that do not link up) before it shows `failing` with the count in its last error (docs/chains.md#failures)',
  }),
  hotWalletFeeBumpAfterSeconds: Type.Integer({
    minimum: 1,
    maximum: 86400,
    default: 180,
    env: 'HOSTPAY_HOT_WALLET_FEE_BUMP_AFTER_SECONDS',
    description:
      'an evm-hot-wallet transaction not mined this long after its broadcast is replaced with a higher fee (same nonce); lower it where blocks are fast (or in tests)',
  }),
  instanceId: Type.String({
    default: '',
    pattern: '^([A-Za-z0-9_.-]{1,64})?$',
    env: 'HOSTPAY_INSTANCE_ID',
    description:
      "this instance's name in the leases it holds (webhook deliveries, Idempotency-Key claims), unique per running instance and the same across its restarts, so a restart takes its leases back at once; empty: a random id kept in <dataDir>/instance-id",
  }),
  logLevel: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info', env: 'HOSTPAY_LOG_LEVEL', description: 'pino log level' },
  ),
});
export type Config = Static<typeof ConfigSchema>;

type Env = Record<string, string | undefined>;

/** Settings whose value may hold a secret: an invalid one is named in the error, its value not shown. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set([
  'databaseUrl',
  'redisUrl',
  'masterKey',
  'masterKeyPrevious',
  'smtpUrl',
]);

/** Reads the configuration from the environment, overridden by explicit values (CLI flags). */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigSchema.properties)) {
    const text = env[(schema as unknown as { env: string }).env];
    if (text === undefined || text === '') continue;
    const type = (schema as { type?: string }).type;
    raw[name] =
      type === 'integer'
        ? /^-?\d+$/.test(text)
          ? Number(text)
          : text
        : type === 'boolean'
          ? text === 'true' || text === '1'
            ? true
            : text === 'false' || text === '0'
              ? false
              : text
          : text;
  }
  for (const [k, v] of Object.entries(overrides)) if (v !== undefined) raw[k] = v;
  const withDefaults = Value.Default(ConfigSchema, raw);
  const firstError = Value.Errors(ConfigSchema, withDefaults).First();
  if (firstError) {
    const name = firstError.path.slice(1);
    const schema = ConfigSchema.properties[name as keyof Config] as { env?: string } | undefined;
    // A setting that carries a secret (a key, or credentials in a URL) is named, never echoed.
    const shown = SECRET_SETTINGS.has(name)
      ? '(value not shown: it may hold a secret)'
      : JSON.stringify(firstError.value);
    throw new Error(`invalid configuration ${schema?.env ?? name}=${shown}: ${firstError.message}`);
  }
  const config = withDefaults as Config;
  if (config.mailFrom !== '') {
    // Every mail's From and Message-ID domain: a bad one would fail each send, far from its cause.
    const from = checkEmail(config.mailFrom);
    if (!from.ok)
      throw new Error(
        `invalid configuration HOSTPAY_MAIL_FROM=${JSON.stringify(config.mailFrom)}: it ${from.reason}; give one address such as billing@pay.example.com (the merchant's name is added as its phrase)`,
      );
  }
  if (!(Date.parse(config.signatureV1SunsetAt) > Date.parse(config.signatureV1DeprecatedAt)))
    throw new Error(
      `invalid configuration HOSTPAY_SIGNATURE_V1_SUNSET_AT=${config.signatureV1SunsetAt}: it must be a valid time after HOSTPAY_SIGNATURE_V1_DEPRECATED_AT (${config.signatureV1DeprecatedAt})`,
    );
  return { ...config, dataDir: resolve(config.dataDir) };
}

/** The table in docs/configuration.md is generated from this, so the two cannot drift. */
export function configTable(): string {
  const rows = Object.values(ConfigSchema.properties).map((s) => {
    const schema = s as unknown as { env: string; default: unknown; description: string };
    return `| \`${schema.env}\` | \`${JSON.stringify(schema.default)}\` | ${schema.description} |`;
  });
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}
