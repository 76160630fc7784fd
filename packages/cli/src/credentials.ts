import type { Command } from 'commander';
import { UsageError } from './output.js';
import { profileName, profilesFile, readProfiles, type Profile } from './profiles.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export interface CredentialFlags {
  apiKey?: string;
  apiSecret?: string;
  token?: string;
  baseUrl?: string;
  profile?: string;
  signatureVersion?: string;
}

export interface Credentials {
  /** Without a trailing slash, so a path can be appended. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  token: string | undefined;
  /** Request signature version; default 2 (method and path signed too), 1 for servers older than it. */
  signatureVersion?: 1 | 2 | undefined;
}

type Env = Record<string, string | undefined>;

/** `--token` is offered with this help text when given. */
export function withCredentialOptions(cmd: Command, opts: { tokenHelp?: string }): Command {
  cmd
    .option('--api-key <key>', "API key (default: $HOSTPAY_API_KEY, else the profile's)")
    .option('--api-secret <secret>', "API secret (default: $HOSTPAY_API_SECRET, else the profile's)");
  if (opts.tokenHelp !== undefined) cmd.option('--token <token>', opts.tokenHelp);
  cmd.option(
    '--signature-version <n>',
    'request signature version: 2 (default; signs method and path too) or 1 for a server older than version 2 (default: $HOSTPAY_SIGNATURE_VERSION)',
  );
  return withBaseUrlOptions(cmd);
}

/** `--base-url` and `--profile`, for commands that need the server but no API key (`time`). */
export function withBaseUrlOptions(cmd: Command): Command {
  return cmd
    .option(
      '--base-url <url>',
      `server address (default: $HOSTPAY_BASE_URL, else the profile's, else ${DEFAULT_BASE_URL})`,
    )
    .option(
      '--profile <name>',
      'saved profile to fall back on (default: $HOSTPAY_PROFILE, else "default"; save one with hostpay login)',
    );
}

/** Help of `--token` for commands that call the API through the client. */
export const CLIENT_TOKEN_HELP =
  'bearer token, used as given and never renewed (default: $HOSTPAY_TOKEN; without one the command obtains its own)';

/** A flag, else the environment variable; an empty variable counts as unset. */
const pick = (flag: string | undefined, env: Env, name: string): string | undefined =>
  flag ?? (env[name] === '' ? undefined : env[name]);

/**
 * Each setting comes from the first of: its flag, its HOSTPAY_* variable, the selected profile
 * (`hostpay login`), then the default (base URL only). The profile's secret is used only with the
 * profile's own key: sending it with another key could only fail as INVALID_SIGNATURE.
 */
export function resolveCredentials(flags: CredentialFlags, env: Env): Credentials {
  let apiKey = pick(flags.apiKey, env, 'HOSTPAY_API_KEY');
  let apiSecret = pick(flags.apiSecret, env, 'HOSTPAY_API_SECRET');
  let baseUrl = pick(flags.baseUrl, env, 'HOSTPAY_BASE_URL');
  const saved =
    apiKey === undefined || apiSecret === undefined || baseUrl === undefined ? selectedProfile(flags, env) : undefined;
  if (saved) {
    apiKey ??= saved.profile.apiKey;
    if (apiSecret === undefined && saved.profile.apiKey === apiKey) apiSecret = saved.profile.apiSecret;
    baseUrl ??= saved.profile.baseUrl;
  }
  const login = 'or save them once with `hostpay login --api-key KEY --api-secret SECRET`';
  if (apiKey === undefined) throw new UsageError(`missing API key: pass --api-key, set HOSTPAY_API_KEY, ${login}`);
  if (apiSecret === undefined) {
    const other = saved ? ` (profile "${saved.name}" is for another key)` : '';
    throw new UsageError(
      `missing API secret for ${apiKey}: pass --api-secret, set HOSTPAY_API_SECRET, ${login}${other}`,
    );
  }
  return {
    baseUrl: normaliseBaseUrl(baseUrl ?? DEFAULT_BASE_URL),
    apiKey,
    apiSecret,
    token: pick(flags.token, env, 'HOSTPAY_TOKEN'),
    signatureVersion: signatureVersion(pick(flags.signatureVersion, env, 'HOSTPAY_SIGNATURE_VERSION')),
  };
}

function signatureVersion(value: string | undefined): 1 | 2 {
  if (value === undefined || value === '2') return 2;
  if (value === '1') return 1;
  throw new UsageError(
    `--signature-version (or HOSTPAY_SIGNATURE_VERSION) must be 1 or 2, not ${JSON.stringify(value)}`,
  );
}

/** The server address alone, in the same order: flag, variable, profile, default. */
export function resolveBaseUrl(flags: CredentialFlags, env: Env): string {
  const baseUrl = pick(flags.baseUrl, env, 'HOSTPAY_BASE_URL') ?? selectedProfile(flags, env)?.profile.baseUrl;
  return normaliseBaseUrl(baseUrl ?? DEFAULT_BASE_URL);
}

/**
 * What `hostpay login` verifies and saves: key and secret from flags or variables only (never
 * from a profile); the base URL as usual, so logging in again to an existing profile keeps its server.
 */
export function resolveLogin(flags: CredentialFlags, env: Env): { name: string; file: string; creds: Credentials } {
  const { name } = profileName(flags.profile, env);
  const file = profilesFile(env);
  const apiKey = pick(flags.apiKey, env, 'HOSTPAY_API_KEY');
  const apiSecret = pick(flags.apiSecret, env, 'HOSTPAY_API_SECRET');
  if (apiKey === undefined) throw new UsageError('login needs an API key: pass --api-key or set HOSTPAY_API_KEY');
  if (apiSecret === undefined)
    throw new UsageError('login needs the API secret: pass --api-secret or set HOSTPAY_API_SECRET');
  const baseUrl = pick(flags.baseUrl, env, 'HOSTPAY_BASE_URL') ?? readProfiles(file)[name]?.baseUrl ?? DEFAULT_BASE_URL;
  return { name, file, creds: { baseUrl: normaliseBaseUrl(baseUrl), apiKey, apiSecret, token: undefined } };
}

/** The selected profile; none when the default one was never saved, an error when a named one is missing. */
function selectedProfile(flags: CredentialFlags, env: Env): { name: string; profile: Profile } | undefined {
  const { name, explicit } = profileName(flags.profile, env);
  const file = profilesFile(env);
  const profile = readProfiles(file)[name];
  if (profile === undefined && explicit) {
    throw new UsageError(
      `no profile "${name}" in ${file}: save it with \`hostpay login --profile ${name} --api-key KEY --api-secret SECRET\``,
    );
  }
  return profile && { name, profile };
}

function normaliseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`base URL ${JSON.stringify(text)} is not a URL; use e.g. ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`base URL must start with http:// or https://, got ${JSON.stringify(text)}`);
  if (url.search !== '' || url.hash !== '') throw new UsageError('base URL must not have a query or fragment');
  return url.href.replace(/\/+$/, '');
}

/** The full URL of `path` (a path like /api/v1/cp/wallets?x=1) under the base URL. */
export function urlFor(baseUrl: string, path: string): string {
  return baseUrl + (path.startsWith('/') ? path : `/${path}`);
}
