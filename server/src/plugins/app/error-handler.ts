import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { isDatabaseUnavailable } from '../../db/database.js';
import { HttpError, type FieldError } from '../../lib/http-errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The 404 message of a route with an :id, also used when the id in the URL could never name a record. */
    notFoundMessage?: string;
  }
}

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  parentSchema?: { errorMessage?: string };
}

function fieldOf(error: SchemaError, context: string | undefined): string {
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const child =
    typeof error.params.missingProperty === 'string'
      ? error.params.missingProperty
      : typeof error.params.additionalProperty === 'string'
        ? error.params.additionalProperty
        : '';
  const field = [path, child].filter(Boolean).join('.');
  return field || (context ?? 'body');
}

function messageOf(error: SchemaError, field: string, context: string | undefined): string {
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      return `${field} is not an accepted ${context === 'querystring' ? 'query parameter' : 'field'}`;
    case 'type':
      if (field === (context ?? 'body')) return `Request ${field} must be a JSON ${String(params.type)}`;
      return `${field} must be ${params.type === 'integer' ? 'an integer' : `a ${String(params.type)}`}`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `${field} must not be empty`
        : `${field} must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `${field} must not exceed ${String(params.limit)} characters`;
    case 'minimum':
    case 'maximum':
      return `${field} ${error.message ?? 'is out of range'}`;
    case 'pattern':
    case 'format':
      return `${field} ${error.parentSchema?.errorMessage ?? 'has an invalid format'}`;
    case 'anyOf':
      return `${field} ${error.parentSchema?.errorMessage ?? 'has an invalid value'}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

export function fieldErrorsFromSchema(errors: SchemaError[], context: string | undefined): FieldError[] {
  // Union branches report one error each; the union's own error says it once.
  const relevant = errors.some((error) => error.keyword === 'anyOf')
    ? errors.filter(
        (error) =>
          error.keyword === 'anyOf' ||
          !errors.some(
            (other) => other.keyword === 'anyOf' && error.instancePath.startsWith(other.instancePath),
          ),
      )
    : errors;
  return relevant.map((error) => {
    const field = fieldOf(error, context);
    return { field, message: messageOf(error, field, context) };
  });
}

const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON in request body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type: send JSON with Content-Type: application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body does not match its Content-Length',
  FST_REQ_FILE_TOO_LARGE: 'The uploaded file is too large',
  FST_FILES_LIMIT: 'Upload one file only',
  FST_PARTS_LIMIT: 'Too many parts in the upload',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send the file as multipart/form-data',
};

/** How long a client should wait before retrying when the database is unreachable, saturated or too slow. */
const RETRY_AFTER_SECONDS = 5;

export default fp(
  async function errorHandlerPlugin(app) {
    app.setErrorHandler(async (error: FastifyError | HttpError, request, reply) => {
      if (error instanceof HttpError) {
        reply.headers(error.headers);
        return reply
          .code(error.statusCode)
          .send(error.errors ? { message: error.message, errors: error.errors } : { message: error.message });
      }
      if (error.validation && error.validationContext === 'params') {
        // An id that fails its schema (empty, control characters) names no record: answer exactly as for a missing one.
        return reply.code(404).send({ message: request.routeOptions.config.notFoundMessage ?? 'Not found' });
      }
      if (error.validation) {
        const errors = fieldErrorsFromSchema(error.validation as SchemaError[], error.validationContext);
        return reply.code(400).send({ message: 'Validation failed', errors });
      }
      const statusCode = error.statusCode ?? 500;
      if (statusCode >= 400 && statusCode < 500) {
        request.log.info({ code: error.code, statusCode }, error.message);
        return reply.code(statusCode).send({ message: fastifyClientErrors[error.code] ?? error.message });
      }
      if (isDatabaseUnavailable(error)) {
        // Not a bug in the request or the code: the database is away, saturated or too slow. Worth a retry.
        request.log.warn({ err: error }, 'database unavailable');
        return reply
          .code(503)
          .header('retry-after', String(RETRY_AFTER_SECONDS))
          .send({ message: 'The service is temporarily unavailable; try again shortly' });
      }
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(statusCode >= 500 && statusCode < 600 ? statusCode : 500)
        .send({ message: 'Internal server error' });
    });

    app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ message: 'Not found' }));
  },
  { name: 'error-handler' },
);
