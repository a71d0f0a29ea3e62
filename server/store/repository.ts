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
