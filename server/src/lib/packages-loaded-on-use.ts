import { createRequire } from 'node:module';
import type * as ajvCompiler from '@fastify/ajv-compiler';
import type * as serializerCompiler from '@fastify/fast-json-stringify-compiler';
import type nodemailer from 'nodemailer';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type webpush from 'web-push';

const require = createRequire(import.meta.url);

function loadedOnUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}

/*
 * Packages read from disk the first time they are asked for, not when the API starts. The API on SQLite (what
 * `npm start` runs, and every browser test's stack) never opens PostgreSQL, sends mail over SMTP or signs a push
 * request while it starts, and compiles its schemas on first use (lazy-schema-compilers.ts). Each function returns
 * the package's `module.exports`, which is what a default import of it gives.
 */
export const postgresClient = loadedOnUse<typeof pg>('pg');
export const pgBoss = loadedOnUse<typeof PgBoss>('pg-boss');
export const mailTransports = loadedOnUse<typeof nodemailer>('nodemailer');
export const webPush = loadedOnUse<typeof webpush>('web-push');
export const schemaValidators = loadedOnUse<typeof ajvCompiler>('@fastify/ajv-compiler');
export const schemaSerializers = loadedOnUse<typeof serializerCompiler>(
  '@fastify/fast-json-stringify-compiler',
);
