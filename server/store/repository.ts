/**
 * A repository: the statements of one aggregate, prepared once per database connection (preparing
 * a statement costs more than running it, and a connection outlives every request that uses it).
 * `export const workersRepository = repository((sqlite) => { … return { byId(id) { … } } })`, used
 * as `workersRepository(farm.store).byId(id)`. Only modules in server/store define repositories.
 */
import type Database from "better-sqlite3";

export interface Connected {
  readonly sqlite: Database.Database;
}

export function repository<T>(build: (sqlite: Database.Database) => T): (store: Connected) => T {
  const built = new WeakMap<Database.Database, T>();
  return (store) => {
    let value = built.get(store.sqlite);
    if (value === undefined) built.set(store.sqlite, (value = build(store.sqlite)));
    return value;
  };
}

/**
 * Statements whose text a view builds from a whitelist (sort keys, filters): each shape prepared
 * once, the cache emptied past `max` shapes as a guard (the whitelists keep the real number small).
 */
export function shapedStatements(sqlite: Database.Database, max = 256): <Row>(text: string) => Database.Statement<unknown[], Row> {
  const shapes = new Map<string, Database.Statement<unknown[], unknown>>();
  return <Row>(text: string) => {
    let statement = shapes.get(text);
    if (!statement) {
      if (shapes.size >= max) shapes.clear();
      shapes.set(text, (statement = sqlite.prepare<unknown[], unknown>(text)));
    }
    return statement as Database.Statement<unknown[], Row>;
  };
}
