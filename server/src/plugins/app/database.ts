import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config.js';
import { createDatabase, migrateDatabase, type DatabaseKind } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    databaseKind: DatabaseKind;
  }
}

export default fp(
  async function databasePlugin(app, options: { database: DatabaseConfig }) {
    await migrateDatabase(options.database);
    const { db, kind } = createDatabase(options.database);
    app.decorate('db', db);
    app.decorate('databaseKind', kind);
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'database' },
);
