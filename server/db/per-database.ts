/**
 * What hot paths build once per database handle (prepared statements, mostly): preparing a
 * statement costs more than running it, and a handle outlives every request that uses it.
 */
import type Database from "better-sqlite3";

export function perDatabase<T>(build: (sqlite: Database.Database) => T): (sqlite: Database.Database) => T {
  const built = new WeakMap<Database.Database, T>();
  return (sqlite) => {
    let value = built.get(sqlite);
    if (value === undefined) built.set(sqlite, (value = build(sqlite)));
    return value;
  };
}
