import type { FastifyServerOptions } from 'fastify';
import { schemaSerializers, schemaValidators } from './packages-loaded-on-use.js';

/** Fastify's `schemaController.compilersFactory`: what builds every route's validators and reply serializers. */
export type SchemaCompilers = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;

type Compile = (route: unknown) => unknown;
type Builder = (externalSchemas: unknown, options: unknown) => Compile;

/**
 * Fastify's own compilers, the ones it uses when given none (Ajv for validation, fast-json-stringify for replies).
 * Their packages (about 250 modules) are loaded when the first schema is compiled.
 */
export function fastifySchemaCompilers(): SchemaCompilers {
  let validators: Builder | undefined;
  let serializers: Builder | undefined;
  return {
    buildValidator: ((externalSchemas: unknown, options: unknown) =>
      (validators ??= schemaValidators().AjvCompiler() as unknown as Builder)(
        externalSchemas,
        options,
      )) as never,
    buildSerializer: ((externalSchemas: unknown, options: unknown) =>
      (serializers ??= schemaSerializers().SerializerSelector() as unknown as Builder)(
        externalSchemas,
        options,
      )) as never,
  };
}

interface Validator {
  (data: unknown, dataContext?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/**
 * A validator compiled on its first call. Fastify reads `errors` from the function after a failed call, and passes
 * the request as parent data (so that Ajv may replace a root value) only to a function with `schemaEnv`, as Ajv's
 * have: the stand-in has both, and forwards them to the real one.
 */
function validatorOnFirstUse(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const validate: Validator = (data, dataContext) => (compiled ??= compile())(data, dataContext);
  Object.defineProperty(validate, 'errors', { get: () => compiled?.errors ?? null });
  validate.schemaEnv = true;
  return validate;
}

function serializerOnFirstUse(compile: () => (data: unknown) => string): (data: unknown) => string {
  let compiled: ((data: unknown) => string) | undefined;
  return (data) => (compiled ??= compile())(data);
}

/**
 * Compilers that compile a route's schema the first time a request needs it, not when the app starts.
 *
 * Fastify compiles every route's validators and serializers at start-up: 252 of them, 0.5 s of the API's 2.4 s
 * start on this machine, and most of a test process's set-up, where a test file calls a few routes. A schema compiled
 * late is the same function. The first request of a route pays its compile once, a few ms; the very first request
 * after a start also loads the compilers and the shared schemas, 0.4 s here. In all, the first answer comes 0.8 s
 * sooner than with everything compiled at ready. Whether every schema compiles at all is checked by a test that
 * builds the app with `compileSchemasAtStart` (server/test/lib/lazy-schema-compilers.test.ts), so a broken schema
 * still fails before it ships.
 */
export function onFirstUse(compilers: SchemaCompilers): SchemaCompilers {
  // The builders too run on first use: each makes an Ajv (or serializer) context holding every shared schema.
  const later = (builder: Builder) => (externalSchemas: unknown, options: unknown) => {
    let compile: Compile | undefined;
    return (route: unknown) => () => (compile ??= builder(externalSchemas, options))(route);
  };
  const validators = later(compilers.buildValidator as unknown as Builder);
  const serializers = later(compilers.buildSerializer as unknown as Builder);
  return {
    buildValidator: ((externalSchemas: unknown, options: unknown) => {
      const compileLater = validators(externalSchemas, options);
      return (route: unknown) => validatorOnFirstUse(compileLater(route) as () => Validator);
    }) as never,
    buildSerializer: ((externalSchemas: unknown, options: unknown) => {
      const compileLater = serializers(externalSchemas, options);
      return (route: unknown) => serializerOnFirstUse(compileLater(route) as () => (data: unknown) => string);
    }) as never,
  };
}
