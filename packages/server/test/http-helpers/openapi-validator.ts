import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';

/**
 * Checks real responses against the served OpenAPI 3.1 document: the status is documented for
 * the operation, the content type is one it documents, and the body validates against that
 * schema. Ajv 8 in its JSON Schema 2020-12 dialect (the dialect OpenAPI 3.1 schemas are in) with
 * ajv-formats for `date-time`; OpenAPI-specific response validators (openapi-response-validator
 * and kin) implement OpenAPI 3.0's schema dialect, not 3.1's.
 */
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, WebhookOperation>>;
  components: { schemas: Record<string, Schema> };
}
type Schema = Record<string, unknown>;
export interface WebhookOperation {
  operationId: string;
  parameters: { in: string; name: string; required?: boolean }[];
  requestBody: { required: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
}
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

// Components get absolute ids so `$ref`s resolve without the rest of the document; Ajv only
// resolves these in memory (no loadSchema), nothing is fetched.
const BASE = 'https://hostpay.invalid/components/schemas/';
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020;

/** The schema with `#/components/schemas/X` references pointed at the registered components. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$id') continue;
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', BASE) : rebase(v);
  }
  return out;
}

const mediaType = (contentType: string) => contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';

export class ResponseValidator {
  // `decimal` marks the JSON numbers that hold exact decimals (protocol DECIMAL_FORMAT).
  private readonly ajv = addFormats(new Ajv2020({ allErrors: true, strict: true })).addFormat('decimal', {
    type: 'number',
    validate: Number.isFinite,
  });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly doc: OpenApiDoc) {
    for (const [name, schema] of Object.entries(doc.components.schemas))
      this.ajv.addSchema(rebase(schema) as Schema, BASE + name);
  }

  operation(method: string, path: string): Operation | undefined {
    return this.doc.paths[path]?.[method.toLowerCase()];
  }

  /** What is wrong with `value` as an instance of the component schema `name`; [] if nothing. */
  schemaProblems(name: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(BASE + name);
    if (validate === undefined) return [`${name}: no such component`];
    if (validate(value)) return [];
    return [`${name}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`];
  }

  /** What is wrong with `res` as an answer of `method path` (a documented path template); [] if nothing. */
  problems(method: string, path: string, res: LightMyRequestResponse): string[] {
    const where = `${method} ${path} -> ${res.statusCode}`;
    const op = this.operation(method, path);
    if (op === undefined) return [`${where}: operation not in the document`];
    const documented =
      op.responses[String(res.statusCode)] ?? op.responses[`${String(res.statusCode)[0]}XX`] ?? op.responses.default;
    if (documented === undefined)
      return [`${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')})`];
    const content = documented.content ?? {};
    if (Object.keys(content).length === 0)
      return res.body === '' ? [] : [`${where}: a body where the document says none`];
    const type = mediaType(String(res.headers['content-type'] ?? ''));
    const entry = Object.entries(content).find(([t]) => mediaType(t) === type);
    if (entry === undefined)
      return [
        `${where}: content type ${type || '(none)'} not documented (documented: ${Object.keys(content).join(', ')})`,
      ];
    let body: unknown = res.body;
    if (type === 'application/json') {
      try {
        body = JSON.parse(res.body);
      } catch {
        return [`${where}: body is not JSON: ${res.body.slice(0, 200)}`];
      }
    }
    const key = `${method} ${path} ${res.statusCode} ${entry[0]}`;
    let validate = this.compiled.get(key);
    if (validate === undefined) {
      validate = this.ajv.compile(rebase(entry[1].schema) as Schema);
      this.compiled.set(key, validate);
    }
    if (validate(body)) return [];
    return [`${where}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })} in ${res.body.slice(0, 300)}`];
  }
}
