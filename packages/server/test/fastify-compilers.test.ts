import { createRequire } from 'node:module';
import { type TSchema, Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FASTIFY_COMPILERS } from '../src/http/fastify-compilers.js';
import { createFixture, type HttpFixture } from './http-helpers/fixture.js';

/**
 * The app's Fastify is built with hostpay's schema compilers (http/fastify-compilers.ts), so
 * Fastify never loads its default ones (Ajv, fast-json-stringify): at start they were loaded only
 * to be replaced. Answers are written by JSON.stringify, as they were with setSerializerCompiler.
 */
const loaded = () => Object.keys(createRequire(import.meta.url).cache);
const DEFAULT_COMPILERS = /node_modules\/@fastify\/(ajv-compiler|fast-json-stringify-compiler)\//;

let fx: HttpFixture;
beforeAll(async () => {
  fx = await createFixture();
});
afterAll(() => fx.close());

describe("Fastify's default schema compilers", () => {
  it('are not loaded by building the app and answering requests', async () => {
    expect((await fx.app.inject({ method: 'GET', url: '/api/v1/time' })).statusCode).toBe(200);
    expect((await fx.app.inject({ method: 'POST', url: '/api/v1/auth/token', payload: {} })).statusCode).toBe(401);
    // The check sees a module that is loaded: Fastify itself.
    expect(loaded().some((f) => f.includes('/node_modules/fastify/fastify.js'))).toBe(true);
    expect(loaded().filter((f) => DEFAULT_COMPILERS.test(f))).toEqual([]);
  });

  it('are replaced by TypeBox checks and JSON.stringify: a response schema does not filter the answer', async () => {
    const app = Fastify({ logger: false, schemaController: FASTIFY_COMPILERS });
    app.post(
      '/echo',
      {
        schema: {
          body: Type.Object({ n: Type.Integer() }),
          response: { 200: Type.Object({ n: Type.Integer() }) },
        },
      },
      async (req) => ({ ...(req.body as object), extra: 'kept' }),
    );
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 1 } });
    expect(ok.body).toBe('{"n":1,"extra":"kept"}');
    // No coercion: the string "1" is not an integer.
    expect((await app.inject({ method: 'POST', url: '/echo', payload: { n: '1' } })).statusCode).toBe(400);
    expect(loaded().filter((f) => DEFAULT_COMPILERS.test(f))).toEqual([]);
    await app.close();
  });
});

describe('request checks', () => {
  it('are compiled on a route’s first request, not when it is registered, and check from the first', async () => {
    let compiled = 0;
    const compile = TypeCompiler.Compile;
    TypeCompiler.Compile = ((schema: TSchema) => {
      compiled++;
      return compile(schema);
    }) as typeof TypeCompiler.Compile;
    try {
      const app = Fastify({ logger: false, schemaController: FASTIFY_COMPILERS });
      for (const path of ['/a', '/b', '/c'])
        app.post(
          path,
          { schema: { body: Type.Object({ n: Type.Integer() }), querystring: Type.Object({ k: Type.Integer() }) } },
          async (req) => ({ body: req.body, query: req.query }),
        );
      await app.ready();
      expect(compiled).toBe(0);
      // The first request is checked: a bad body is refused by the check compiled for it.
      expect((await app.inject({ method: 'POST', url: '/a?k=1', payload: { n: 'x' } })).statusCode).toBe(400);
      expect(compiled).toBe(1); // the body's: Fastify stops at the first part that fails
      const ok = await app.inject({ method: 'POST', url: '/a?k=7', payload: { n: 1 } });
      expect(ok.json()).toEqual({ body: { n: 1 }, query: { k: 7 } });
      expect((await app.inject({ method: 'POST', url: '/a?k=x', payload: { n: 1 } })).statusCode).toBe(400);
      expect(compiled).toBe(2);
      await app.close();
    } finally {
      TypeCompiler.Compile = compile;
    }
  });
});
