import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { bodyError, queryError } from './validation-errors.js';

/**
 * Request validation with TypeBox's compiled checks instead of Ajv's defaults: no type coercion
 * (a body `"expiresIn": "3600"` is an error, not a number), no silent removal of unknown fields,
 * and a failure becomes a HostpayError right here, where the schema and the value are at hand.
 * Fastify hands a returned Error to the error handler unchanged.
 */
export const strictValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = TypeCompiler.Compile(schema);
  const isBody = httpPart === 'body';
  return (value: unknown) => {
    if (check.Check(value)) return { value };
    const first = check.Errors(value).First();
    return { error: isBody ? bodyError(schema, first) : queryError(schema, value, first) };
  };
};
