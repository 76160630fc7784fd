import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_REQUESTS_PER_MINUTE } from '../../src/features/merchant-users/link-routes.js';
import { createFixture, type HttpFixture } from '../http-helpers/fixture.js';

/**
 * "Forgot password" is unauthenticated and each request writes (a link, a security-log row, a
 * mail): one client address is turned away after RESET_REQUESTS_PER_MINUTE a minute, with the
 * 429 envelope and Retry-After, while another address is still served.
 */
describe('forgot-password requests from one address', () => {
  let fx: HttpFixture;
  beforeAll(async () => {
    fx = await createFixture();
  });
  afterAll(() => fx.close());

  const ask = (remoteAddress: string, n: number) =>
    fx.app.inject({
      method: 'POST',
      url: '/dashboard/api/password-reset-requests',
      remoteAddress,
      payload: { email: `nobody-${n}@example.com` },
    });

  it(`${RESET_REQUESTS_PER_MINUTE} a minute, then 429 RATE_LIMITED; another client is not held up`, async () => {
    for (let i = 0; i < RESET_REQUESTS_PER_MINUTE; i++) expect((await ask('203.0.113.7', i)).statusCode).toBe(202);
    const over = await ask('203.0.113.7', 99);
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body)).toMatchObject({ status: false, error: { code: 'RATE_LIMITED' } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask('198.51.100.9', 100)).statusCode).toBe(202);
  });
});
