import type { FastifyServerOptions } from 'fastify';
import { strictValidatorCompiler } from './validator.js';

type Compilers = Required<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>>;

/**
 * The schema compilers of every Fastify instance hostpay builds, given when it is built
 * (`schemaController`) rather than set afterwards: an instance built without them loads Fastify's
 * defaults (Ajv through @fastify/ajv-compiler, fast-json-stringify through
 * @fastify/fast-json-stringify-compiler) at once, only to have them replaced.
 *
 * Requests are validated by TypeBox (validator.ts). Response schemas document the answers
 * (OpenAPI) and a test validates every route's real answers against them; they are not used to
 * write them. Most answers are finished JSON text (exact decimals), the rest small objects built
 * field by field, so Fastify's compiled serializers (fast-json-stringify, one per route and
 * status) would almost never run, yet compiling them was ~120 ms of every start and ~17 MB of
 * memory (bench/HISTORY.md).
 */
export const FASTIFY_COMPILERS: { compilersFactory: Compilers } = {
  compilersFactory: {
    // Its type is Ajv's; Fastify takes any compiler (the same function setValidatorCompiler would).
    buildValidator: (() => strictValidatorCompiler) as unknown as Compilers['buildValidator'],
    buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
  },
};
