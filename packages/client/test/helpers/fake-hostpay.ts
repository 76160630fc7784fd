import { sign, signV2 } from '@hostpay/protocol';
import { errorReply, okReply, startServer, type Recorded, type Reply, type TestServer } from './http-server.js';

export const API_KEY = 'hp_test_key';
export const API_SECRET = 'sk_test_secret';

/** A wallet list as the server writes it: amounts as exact number literals. */
export const WALLETS_JSON =
  '[{"id":"w1","active":true,"amount":1234567890.123456789012345678,"freezeAmount":0.000000000000000001,' +
  '"isCrypto":true,"asset":"USDT","assetDetails":{"symbol":"USDT","name":"Tether","image":"usdt.png"},' +
  '"chain":{"name":"Tron","symbol":"TRX"},"assetId":"a1","chainId":"c1","networks":[],' +
  '"createdAt":"2025-01-01T00:00:00.000Z","updatedAt":"2025-01-01T00:00:00.000Z"}]';

export interface FakeOptions {
  /** The server's clock in ms. Default Date.now. */
  serverNow?: () => number;
  /** Leave serverTime out of TIMESTAMP_OUT_OF_WINDOW (the client must ask GET /time). */
  omitServerTime?: boolean;
  /** Token lifetime in seconds. Default 3600. */
  tokenLifetime?: number;
  /** Delay before answering a token request, ms. */
  tokenDelayMs?: number;
  /** Runs first; a Reply it returns is sent instead of the normal answer. */
  intercept?: (req: Recorded) => Reply | undefined;
}

export interface FakeHostpay extends TestServer {
  tokenRequests(): number;
  /** Makes every token issued so far invalid (as after a key rotation). */
  revokeTokens(): void;
}

/** A small stand-in for the hostpay server: real signature, timestamp and token checks. */
export async function startFakeHostpay(options: FakeOptions = {}): Promise<FakeHostpay> {
  const now = options.serverNow ?? Date.now;
  const tokens = new Set<string>();
  let issued = 0;
  const authenticate = (req: Recorded, bearer: boolean): Reply | undefined => {
    const { timestamp, signature } = req.headers;
    if (req.headers['api-key'] !== API_KEY) return errorReply(401, 'UNKNOWN_API_KEY');
    if (typeof timestamp !== 'string' || !/^\d+$/.test(timestamp)) return errorReply(401, 'INVALID_TIMESTAMP');
    const serverTime = Math.floor(now() / 1000);
    if (Math.abs(Number(timestamp) - serverTime) > 60) {
      return errorReply(
        401,
        'TIMESTAMP_OUT_OF_WINDOW',
        options.omitServerTime ? { toleranceSeconds: 60 } : { serverTime, toleranceSeconds: 60 },
      );
    }
    // As the server checks it: version 2 (method, path and query signed) when the header says so.
    const expected =
      req.headers['signature-version'] === '2'
        ? signV2(API_SECRET, timestamp, req.method, req.target, req.body)
        : sign(API_SECRET, timestamp, req.body);
    if (signature !== expected) return errorReply(401, 'INVALID_SIGNATURE');
    if (!bearer) return undefined;
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) return errorReply(401, 'MISSING_HEADER');
    return tokens.has(auth.slice(7)) ? undefined : errorReply(401, 'TOKEN_EXPIRED');
  };
  const server = await startServer(async (req) => {
    const intercepted = options.intercept?.(req);
    if (intercepted) return intercepted;
    if (req.path === '/api/v1/time') {
      const unixTime = Math.floor(now() / 1000);
      return okReply({ unixTime, iso: new Date(unixTime * 1000).toISOString(), toleranceSeconds: 60 });
    }
    if (req.path === '/api/v1/auth/token' && req.method === 'POST') {
      issued++;
      if (options.tokenDelayMs) await new Promise((r) => setTimeout(r, options.tokenDelayMs));
      const denied = authenticate(req, false);
      if (denied) return denied;
      const body = JSON.parse(req.body || '{}') as { expiresIn?: number };
      const expiresIn = body.expiresIn ?? options.tokenLifetime ?? 3600;
      const accessToken = `tok-${issued}`;
      tokens.add(accessToken);
      const expiresAt = new Date(now() + expiresIn * 1000).toISOString();
      return okReply({ accessToken, tokenType: 'Bearer', expiresIn, expiresAt, scope: ['wallets:read', 'fees:read'] });
    }
    const denied = authenticate(req, true);
    if (denied) return denied;
    if (req.path === '/api/v1/cp/wallets/') return okReply(WALLETS_JSON);
    if (req.path === '/api/v1/cp/psp/hosted-pay/fees-preview') {
      const amount = req.query.get('amount') ?? '';
      const currency = (req.query.get('currency') ?? '').toUpperCase();
      return okReply(
        `{"isPercentage":true,"value":1.5,"minValue":0.1,"onChainFee":0,"currency":"${currency}","originalCurrency":"${currency}",` +
          `"amount":${amount},"convertedAmount":${amount},"rate":null,"serviceFee":0.1,"fee":0.1,` +
          `"tier":{"fromAmount":0,"toAmount":null},"scheduleSource":"default"}`,
      );
    }
    return errorReply(404, 'NOT_FOUND');
  });
  return {
    ...server,
    tokenRequests: () => issued,
    revokeTokens: () => tokens.clear(),
  };
}
