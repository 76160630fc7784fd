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
