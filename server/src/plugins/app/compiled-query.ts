import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * A read whose SQL is the same on every call, built and compiled by Kysely once and then run with each call's
 * arguments bound in their places. Building a query and compiling it (the CamelCase plugin copies its whole tree)
 * costs about as much as SQLite reading a day's rows into objects: GET /tasks/today spent a tenth of its time there.
 *
 * `build` must hand each of its arguments to Kysely as a value (in a where, a limit), never shape the query with
 * them ($if, an `in` list, arithmetic): it runs once, with stand-ins, to find where each argument is bound.
 */
export function compiledOnce<Args extends readonly unknown[], Row>(
  db: Kysely<Database>,
  build: (...args: Args) => Compilable<Row>,
): (...args: Args) => Promise<Row[]> {
  let compiled: { query: CompiledQuery<Row>; argumentAt: Array<number | undefined> } | undefined;
  return async (...args) => {
    if (!compiled) {
      // Kysely binds an object as it is, so each stand-in is found again, by identity, among the parameters.
      const standIns = args.map(() => ({}));
      const query = build(...(standIns as unknown as Args)).compile();
      const argumentAt = query.parameters.map((value) => {
        const index = standIns.indexOf(value as object);
        return index < 0 ? undefined : index;
      });
      standIns.forEach((_, index) => {
        if (!argumentAt.includes(index)) {
          throw new Error(`compiledOnce: argument ${index} is not bound as a value of the query`);
        }
      });
      compiled = { query, argumentAt };
    }
    const { query, argumentAt } = compiled;
    const parameters = query.parameters.map((value, index) => {
      const argument = argumentAt[index];
      return argument === undefined ? value : args[argument];
    });
    const { rows } = await db.executeQuery<Row>({ ...query, parameters });
    return rows;
  };
}
