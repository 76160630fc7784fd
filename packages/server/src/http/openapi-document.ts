/**
 * Finishing touches on the generated OpenAPI document (@fastify/swagger's `transformObject`),
 * for what route schemas cannot say themselves. Pure functions over the JSON, tested through
 * the linters (test/openapi-lint.test.ts) and the response validation test.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * @fastify/swagger marks every request body required. Our JSON-body routes (token, admin) read a
 * missing body as `{}` (raw-json-body.ts), so a body is required exactly when `{}` is not valid:
 * when its schema requires a property or a minimum number of them.
 */
export function markOptionalBodies(doc: JsonObject): void {
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    for (const op of Object.values(item)) {
      if (!isObject(op) || !isObject(op.requestBody) || !isObject(op.requestBody.content)) continue;
      const schemas = Object.values(op.requestBody.content).map((media) =>
        isObject(media) && isObject(media.schema) ? media.schema : {},
      );
      op.requestBody.required = schemas.some(
        (s) =>
          (Array.isArray(s.required) && s.required.length > 0) ||
          (typeof s.minProperties === 'number' && s.minProperties > 0),
      );
    }
  }
}

/**
 * A named schema nested in another (Wallet in WalletListEnvelope) is listed under
 * components.schemas but also copied inline where it is used, so the named one looks unused and
 * clients generate two types for one thing. Every inline copy becomes a $ref to the component.
 */
export function referenceNamedSchemas(doc: JsonObject): void {
  const components = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const byShape = new Map<string, string>();
  for (const [name, schema] of Object.entries(components)) if (isObject(schema)) byShape.set(shapeOf(schema), name);
  const visit = (node: Json, isComponentRoot: boolean): Json => {
    if (Array.isArray(node)) return node.map((n) => visit(n, false));
    if (!isObject(node)) return node;
    const name = isComponentRoot ? undefined : byShape.get(shapeOf(node));
    if (name !== undefined) {
      // OpenAPI 3.1 allows a description beside $ref: the use keeps its own wording.
      const own = node.description;
      const named = components[name];
      return typeof own === 'string' && !(isObject(named) && named.description === own)
        ? { $ref: `#/components/schemas/${name}`, description: own }
        : { $ref: `#/components/schemas/${name}` };
    }
    for (const [k, v] of Object.entries(node)) node[k] = visit(v, false);
    return node;
  };
  for (const [name, schema] of Object.entries(components)) components[name] = visit(schema, true);
  if (isObject(doc.paths)) doc.paths = visit(doc.paths, false);
}

/** Structural identity of a schema: its JSON without $id and without its own description. */
function shapeOf(schema: JsonObject): string {
  const { $id: _id, description: _description, ...rest } = schema;
  return JSON.stringify(rest);
}

/**
 * TypeBox writes a union of string literals (a checkout's status) as `anyOf` of one-value
 * schemas; generators and Swagger UI read `enum` as a list of choices (a dropdown, a literal
 * union), so such a union becomes one `{type: string, enum}` keeping its description.
 */
export function collapseStringEnums(doc: JsonObject): void {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isObject(node)) return node;
    for (const [k, v] of Object.entries(node)) node[k] = visit(v);
    const values = Array.isArray(node.anyOf) ? node.anyOf.map(singleString) : [];
    if (values.length === 0 || values.some((v) => v === undefined)) return node;
    const { anyOf: _anyOf, ...rest } = node;
    return { type: 'string', enum: values as string[], ...rest };
  };
  if (isObject(doc.components)) doc.components = visit(doc.components);
  if (isObject(doc.paths)) doc.paths = visit(doc.paths);
  if (isObject(doc.webhooks)) doc.webhooks = visit(doc.webhooks);
}

/** The one string a schema allows when it is just `{type: string, const}` or `{type: string, enum: [x]}`. */
function singleString(schema: Json): string | undefined {
  if (!isObject(schema) || schema.type !== 'string') return undefined;
  const keys = Object.keys(schema).sort().join(',');
  if (keys === 'const,type' && typeof schema.const === 'string') return schema.const;
  if (keys === 'enum,type' && Array.isArray(schema.enum) && schema.enum.length === 1) {
    const [only] = schema.enum;
    return typeof only === 'string' ? only : undefined;
  }
  return undefined;
}
