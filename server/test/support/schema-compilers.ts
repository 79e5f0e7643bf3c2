// Fastify's own schema compilers (@fastify/ajv-compiler, @fastify/fast-json-stringify-compiler), remembering for the
// test process what they compiled. Each app compiles every route's validators and serializers again, about 250 ms of
// CPU; the suites build hundreds of apps per process from the same schemas and options. A function compiled from
// equal JSON under equal options and shared schemas is the same function, so an app reuses an earlier one's.
import { fastifySchemaCompilers, type SchemaCompilers } from '../../src/lib/lazy-schema-compilers.js';

interface RouteSchema {
  schema: unknown;
  httpPart?: string;
  httpStatus?: string;
  contentType?: string;
}

/** Wraps a compiler factory: one cache per set of shared schemas and options, keyed by the route schema's JSON. */
function remembering<Compiled>(
  factory: (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Compiled,
): (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Compiled {
  const byContext = new Map<string, Map<string, Compiled>>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = JSON.stringify([externalSchemas, options]);
    const compiled = byContext.get(context) ?? new Map<string, Compiled>();
    byContext.set(context, compiled);
    return (route) => {
      const key = JSON.stringify([route.httpPart, route.httpStatus, route.contentType, route.schema]);
      const known = compiled.get(key);
      if (known) return known;
      const made = compile(route);
      compiled.set(key, made);
      return made;
    };
  };
}

const fastifys = fastifySchemaCompilers();
export const rememberingSchemaCompilers = {
  buildValidator: remembering(fastifys.buildValidator as never),
  buildSerializer: remembering(fastifys.buildSerializer as never),
} as SchemaCompilers;
