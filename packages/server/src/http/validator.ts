import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { isoTime } from './iso-time.js';
import { bodyError, partError, queryError } from './validation-errors.js';

// TypeBox refuses every value of a format it does not know. `date-time` in a request is the
// full RFC 3339 time the services read (isoTime), so the document's format and the check agree.
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => isoTime(value) !== null);

/**
 * Request validation with TypeBox's compiled checks instead of Ajv's defaults: no type coercion
 * (a body `"expiresIn": "3600"` is an error, not a number), no silent removal of unknown fields,
 * and a failure becomes a HostpayError right here, where the schema and the value are at hand.
 * Fastify hands a returned Error to the error handler unchanged.
 *
 * The one exception is a query parameter declared an integer: a query string has only text, so
 * plain decimal digits (optionally signed) become the number before the check, and the schema's
 * minimum and maximum judge it. Anything else (`1.5`, `1e3`, `abc`) stays text and fails the check.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  // Compiled on the route's first request, not when it is registered: the ~200 checks of every
  // route were 32-93 ms of each start (loaded machine), for routes a server may never be asked.
  let check: TypeCheck<TSchema> | undefined;
  let integers: string[] = [];
  return (input: unknown) => {
    if (check === undefined) {
      // The integers first: `check` set means everything this route's checks need is ready.
      if (httpPart === 'querystring') integers = integerProperties(schema);
      check = TypeCompiler.Compile(schema);
    }
    const value = integers.length > 0 ? withIntegers(input, integers) : input;
    if (check.Check(value)) return { value };
    const first = check.Errors(value).First();
    if (httpPart === 'body') return { error: bodyError(schema, first) };
    if (httpPart === 'headers' || httpPart === 'params') return { error: partError(httpPart, schema, first) };
    return { error: queryError(schema, value, first) };
  };
};

const INTEGER_TEXT = /^-?[0-9]{1,16}$/;

function integerProperties(schema: TSchema): string[] {
  const props = (schema as { properties?: Record<string, TSchema> }).properties ?? {};
  return Object.entries(props)
    .filter(([, p]) => p.type === 'integer')
    .map(([name]) => name);
}

function withIntegers(input: unknown, names: readonly string[]): unknown {
  if (typeof input !== 'object' || input === null) return input;
  const query = input as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  for (const name of names) {
    const text = query[name];
    if (typeof text !== 'string' || !INTEGER_TEXT.test(text)) continue;
    out ??= { ...query };
    out[name] = Number(text);
  }
  return out ?? input;
}
