import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config.js';
import { createDatabase, migrateToLatest, type DatabaseKind } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    databaseKind: DatabaseKind;
  }
}

export default fp(
  async function databasePlugin(app, options: { database: DatabaseConfig }) {
    const { db, kind, schema } = createDatabase(options.database);
    try {
      await migrateToLatest(db, schema);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    app.decorate('db', db);
    app.decorate('databaseKind', kind);
    app.addHook('onClose', async () => {
      await db.destroy();
    });
  },
  { name: 'database' },
);
