import type { TokenResult } from '@hostpay/protocol';
import { shellCommand, shellQuote } from './shell-quote.js';

/** The two interface endpoints, as the demo shows them (query quoted: it holds `&`). */
export const DEMO_PATHS = [
  '/api/v1/cp/wallets',
  '/api/v1/cp/psp/hosted-pay/fees-preview?amount=100&currency=USDT',
] as const;

export interface DemoInfo {
  url: string;
  dataDir: string;
  /** The store and Redis this instance uses, as the start-up summary names them. */
  store: string;
  redis: string;
  created: boolean;
  merchantId: string;
  apiKey: string;
  apiSecret: string;
  token: TokenResult;
  /** The payment page of an open demo checkout. */
  checkoutUrl?: string | undefined;
  /** The operator console and the token that signs in to it (demo: made for the data directory when none is configured). */
  console?: { url: string; operatorToken: string } | undefined;
  /** The demo merchant's dashboard: its owner's email and, until the owner has signed up, an invitation link. */
  dashboard?: { url: string; email: string; invitationLink?: string | undefined } | undefined;
}

/** Lines a user pastes into another terminal: credentials as environment, then one command per endpoint. */
export function demoCommands(info: DemoInfo): { env: string; requests: string[] } {
  const vars = {
    HOSTPAY_BASE_URL: info.url,
    HOSTPAY_API_KEY: info.apiKey,
    HOSTPAY_API_SECRET: info.apiSecret,
    HOSTPAY_TOKEN: info.token.accessToken,
  };
  return {
    env:
      'export ' +
      Object.entries(vars)
        .map(([k, v]) => `${k}=${shellQuote(v)}`)
        .join(' '),
    requests: DEMO_PATHS.map((path) => `${shellCommand(['npx', 'hostpay', 'curl', path])} | sh`),
  };
}

export function demoBanner(info: DemoInfo): string {
  const { env, requests } = demoCommands(info);
  return [
    `hostpay sandbox listening on ${info.url}`,
    `  API docs      ${info.url}/docs`,
    `  store         ${info.store} (${info.created ? 'demo data created' : 'demo data reused from an earlier run'})`,
    `  redis         ${info.redis}`,
    `  data dir      ${info.dataDir}`,
    '',
    `Demo merchant ${info.merchantId}`,
    `  API key       ${info.apiKey}`,
    `  API secret    ${info.apiSecret}`,
    `  bearer token  ${info.token.accessToken}`,
    `  expires       ${info.token.expiresAt} (in ${info.token.expiresIn} s; renew with: npx hostpay token)`,
    ...(info.console === undefined
      ? []
      : [
          '',
          'Operator console (open it in a browser and sign in with the operator token):',
          `  ${info.console.url}`,
          `  operator token ${info.console.operatorToken}`,
        ]),
    ...(info.dashboard === undefined
      ? []
      : info.dashboard.invitationLink === undefined
        ? [
            '',
            'Merchant dashboard (sign in as the demo owner you set up):',
            `  ${info.dashboard.url}`,
            `  email         ${info.dashboard.email}`,
          ]
        : [
            '',
            `Merchant dashboard: open this invitation to set ${info.dashboard.email}'s password and two-factor code (a fresh link at each start until it is used):`,
            `  ${info.dashboard.invitationLink}`,
          ]),
    ...(info.checkoutUrl === undefined
      ? []
      : [
          '',
          `Demo checkout page (open it in a browser; pay it with npx hostpay checkout pay ID --asset USDT --chain TRON):`,
          `  ${info.checkoutUrl}`,
        ]),
    '',
    'Try it from another terminal in this repository (hostpay curl prints a freshly signed curl command, sh runs it):',
    `  ${env}`,
    ...requests.map((r) => `  ${r}`),
    '',
    `Ctrl-C stops the server; the next start reuses the data in ${info.dataDir}.`,
  ].join('\n');
}
