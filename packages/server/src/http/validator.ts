import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { bodyError, partError, queryError } from './validation-errors.js';

/**
 * Request validation with TypeBox's compiled checks instead of Ajv's defaults: no type coercion
 * (a body `"expiresIn": "3600"` is an error, not a number), no silent removal of unknown fields,
 * and a failure becomes a HostpayError right here, where the schema and the value are at hand.
 * Fastify hands a returned Error to the error handler unchanged.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(schema);
  return (value: unknown) => {
    if (check.Check(value)) return { value };
    const first = check.Errors(value).First();
    if (httpPart === 'body') return { error: bodyError(schema, first) };
    if (httpPart === 'headers' || httpPart === 'params') return { error: partError(httpPart, schema, first) };
    return { error: queryError(schema, value, first) };
  };
};
