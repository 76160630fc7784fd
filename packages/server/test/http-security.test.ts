import { afterAll, beforeAll, describe } from 'vitest';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';
import { PROTECTED_ROUTES, securityCases } from './http-helpers/security-cases.js';

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

describe.each(PROTECTED_ROUTES)('$name', (route) => {
  securityCases(route, () => fx);
});
