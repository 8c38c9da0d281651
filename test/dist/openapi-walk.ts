/** The parts of the service's own OpenAPI document (`GET /api/openapi.json`) the route walk reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One request of the walk: method, path with its parameters filled in, and a body. */
export interface WalkRequest {
  method: string;
  /** The documented path (`/api/v1/chats/{id}`). */
  template: string;
  /** The path to request, parameters filled in. */
  path: string;
  body?: { json: unknown } | { multipart: true };
}

/** Values for body fields by name (`email`, `file_id`), where a sample of the type would not do. */
export type KnownValues = Record<string, unknown>;

/**
 * A small valid value for a JSON schema: the default, the first enum value or constant, the
 * first alternative, the least string, number or array the schema allows, objects with their
 * required fields (`known` ones by name). Booleans are false, so a walk switches nothing on.
 */
export function sampleOf(schema: JsonSchema | undefined, doc: OpenApiDocument, known: KnownValues = {}, depth = 0): unknown {
  if (!schema || depth > 8) return undefined;
  const again = (s: JsonSchema | undefined) => sampleOf(s, doc, known, depth + 1);
  if (schema.$ref) return again(doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]);
  if ('const' in schema) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return again(alternatives.find((a) => a.type !== 'null') ?? alternatives[0]);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => again(s) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return 'walker@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'http://127.0.0.1:9/';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => again(schema.items));
    case 'object':
    case undefined: {
      const out: Record<string, unknown> = {};
      for (const name of schema.required ?? []) out[name] = name in known ? known[name] : again(schema.properties?.[name]);
      return out;
    }
    default:
      return null;
  }
}

/**
 * Every operation of the document as a request: path parameters from `ids(template, name)`,
 * required query parameters and JSON bodies sampled from their schemas, multipart bodies marked.
 */
export function walkRequests(doc: OpenApiDocument, ids: (template: string, name: string) => string, known: KnownValues = {}): WalkRequest[] {
  const out: WalkRequest[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      let path = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(ids(template, name)));
      const query = new URLSearchParams();
      for (const p of operation.parameters ?? []) {
        if (p.in === 'query' && p.required) query.set(p.name, p.name === 'id' ? ids(template, 'query:id') : String(sampleOf(p.schema, doc, known)));
      }
      if (query.size > 0) path += `?${query}`;
      const content = operation.requestBody?.content ?? {};
      const body = content['application/json'] ? { json: sampleOf(content['application/json'].schema, doc, known) ?? {} } : content['multipart/form-data'] ? { multipart: true as const } : undefined;
      out.push({ method: method.toUpperCase(), template, path, body });
    }
  }
  return out;
}
