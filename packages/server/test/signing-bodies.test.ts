import { createHmac } from 'node:crypto';
import { signedStringV2 } from '@hostpay/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningBodyVectors } from '../../protocol/test/vectors.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { expectError, issueToken, unixSeconds } from './http-helpers/requests.js';

/**
 * The server's verifier against the body vectors (vectors/signing.json `bodies`): each raw body is
 * posted as sent, signed over the vector's compact form, over the raw text, or over neither. The
 * vectors' own secrets and timestamps cannot be used (keys get server-made secrets, timestamps
 * must be fresh), so the HMAC is recomputed here over the vector's compactBody, never over a
 * compact form computed by the code under test.
 */
let fx: HttpFixture;
let token: string;
beforeAll(async () => {
  fx = await createFixture({ sandbox: true });
  token = await issueToken(fx, fx.demo);
});
afterAll(() => fx.close());

const hmac = (text: string) => createHmac('sha256', fx.demo.apiSecret).update(text, 'utf8').digest('hex');

// Version 1 is accepted on the token route only (of these): checkout create needs version 2.
const ROUTES = [
  { name: 'token route', url: '/api/v1/auth/token', bearer: false, v1: true },
  { name: 'checkout create', url: '/api/v1/cp/psp/hosted-pay', bearer: true, v1: false },
] as const;

async function post(
  route: (typeof ROUTES)[number],
  rawBody: string,
  sign: (timestamp: string) => Record<string, string>,
): Promise<LightMyRequestResponse> {
  const timestamp = unixSeconds(fx.now());
  const headers: Record<string, string> = {
    'api-key': fx.demo.apiKey,
    timestamp,
    'content-type': 'application/json',
    ...sign(timestamp),
  };
  if (route.bearer) headers.authorization = `Bearer ${token}`;
  return fx.app.inject({ method: 'POST', url: route.url, headers, payload: rawBody });
}

/** Past authentication: whatever the route then says of the body (these are not valid create bodies), it is not 401. */
function authenticated(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).not.toBe(401);
  expect(res.statusCode, res.body).toBeLessThan(500);
}

describe('the server verifies every body vector (compact and raw signatures accepted)', () => {
  for (const v of loadSigningBodyVectors()) {
    for (const route of ROUTES) {
      it(`${v.name} → ${route.name}`, async () => {
        // Version 1: accepted where the route takes it; elsewhere a correct one is SIGNATURE_V2_REQUIRED
        // (still proof that the body was verified: a wrong one is INVALID_SIGNATURE, below).
        const v1 = (res: LightMyRequestResponse) =>
          route.v1 ? authenticated(res) : expectError(res, 401, 'SIGNATURE_V2_REQUIRED');
        v1(await post(route, v.rawBody, (ts) => ({ signature: hmac(`${ts}.${v.compactBody}`) })));
        v1(await post(route, v.rawBody, (ts) => ({ signature: hmac(`${ts}.${v.rawBody}`) })));
        // Version 2 signs the same body part, compact or raw.
        for (const body of [v.compactBody, v.rawBody])
          authenticated(
            await post(route, v.rawBody, (ts) => ({
              'signature-version': '2',
              signature: hmac(signedStringV2(ts, 'POST', route.url, '') + body),
            })),
          );
        // A signature over any other text of the same value is refused: the compact body minus its last character.
        expectError(
          await post(route, v.rawBody, (ts) => ({ signature: hmac(`${ts}.${v.compactBody.slice(0, -1)}`) })),
          401,
          'INVALID_SIGNATURE',
        );
      });
    }
  }

  it('a parse-and-stringify signer is refused where that changes the text (escapes, number text, key order)', async () => {
    const changed = loadSigningBodyVectors().filter((v) => JSON.stringify(JSON.parse(v.rawBody)) !== v.compactBody);
    expect(changed.map((v) => v.name).join(' | ')).toMatch(/escapes.*decimals.*key order/);
    for (const v of changed) {
      const res = await post(ROUTES[0], v.rawBody, (ts) => ({
        signature: hmac(`${ts}.${JSON.stringify(JSON.parse(v.rawBody))}`),
      }));
      expectError(res, 401, 'INVALID_SIGNATURE');
    }
  });
});
