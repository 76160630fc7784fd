import { randomBytes } from 'node:crypto';
import { SCOPES } from '@hostpay/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { seedDemoCheckouts } from '../../src/demo/checkouts.js';
import { dropPostgresSchema } from '../../src/store/postgres.js';
import { TEST_DATABASE_URL, type Dialect } from '../helpers.js';
import { checkoutCall } from '../http-helpers/checkouts.js';
import { createFixture, type HttpFixture, type TestKey } from '../http-helpers/fixture.js';

/** The HTTP fixture (demo seeded, sandbox) on either store; the demo merchant's checkouts seeded too. */
export async function reportsEnv(dialect: Dialect): Promise<{ fx: HttpFixture; key: TestKey; close(): Promise<void> }> {
  const schema = `hp_reports_${randomBytes(6).toString('hex')}`;
  const fx = await createFixture({
    sandbox: true,
    ...(dialect === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema } : {}),
  });
  await seedDemoCheckouts(fx.services, fx.demo.merchantId);
  const key = await fx.createKey(fx.demo.merchantId, { scopes: [...SCOPES] });
  return {
    fx,
    key,
    async close() {
      await fx.close();
      if (dialect === 'postgres') await dropPostgresSchema(TEST_DATABASE_URL, schema);
    },
  };
}

export const get = (fx: HttpFixture, key: TestKey, url: string): Promise<LightMyRequestResponse> =>
  checkoutCall(fx, key, 'GET', url);

/** RFC 4180 reader for the tests (the product writes with csv-stringify): quoted fields, "" escapes, CRLF records. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length > 0) throw new Error('CSV does not end with CRLF');
  return records;
}
