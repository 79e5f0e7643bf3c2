import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DatabaseConfig, PostgresPoolConfig } from '../../config.js';
import { createDatabase, migrateDatabase, type DatabaseKind } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    databaseKind: DatabaseKind;
  }
}

export default fp(
  async function databasePlugin(app, options: { database: DatabaseConfig; pool: PostgresPoolConfig }) {
    await migrateDatabase(options.database, { pool: options.pool, log: app.log });
    const { db, kind } = createDatabase(options.database, { pool: options.pool, log: app.log });
    app.decorate('db', db);
    app.decorate('databaseKind', kind);
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'database' },
);
