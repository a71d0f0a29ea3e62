/**
 * Repositories: the statements of one aggregate, as plain objects of functions that take the
 * caller's unit of work first and answer with a promise:
 *
 *   export const workersRepository = {
 *     byId: (tx: ReadTx, id: string) => tx.get<WorkerRow>(BY_ID, [id]),
 *     setStatus: async (tx: Tx, id: string, status: WorkerStatus) => (await tx.run(SET_STATUS, [status, id])).changes,
 *   };
 *
 * used as `await workersRepository.byId(tx, id)` inside `farm.store.transaction(async (tx) => …)`
 * or `farm.store.read(async (tx) => …)`. Reads take a ReadTx, writes a Tx. Only modules in
 * server/store define repositories and hold SQL text.
 *
 * Statements are module constants with `?` placeholders; the engine prepares each text once per
 * connection (SQLite) or names and plans it once per connection (PostgreSQL, for `statement()`s).
 * Text built from a whitelist (sort keys, filters) is fine: each shape is prepared once.
 */
import type { Engine } from "./engine/engine";

export { statement } from "./engine/engine";
export type { ReadTx, Tx } from "./engine/engine";

/**
 * The few things SQLite and PostgreSQL spell differently, for a repository that writes one
 * statement for both: `perEngine((d) => …)` builds it once per engine, and the repository picks
 * `BUILT[tx.engine]`. Everything else (TRUE/FALSE, ON CONFLICT, RETURNING, CASE, COALESCE) is
 * written once in the SQL both engines share.
 */
export interface Dialect {
  readonly engine: Engine;
  /** The larger of two values (SQLite's two-argument max(), PostgreSQL's GREATEST). */
  greatest(a: string, b: string): string;
  /**
   * The values of a JSON array bound as text, as a subquery's rows: `id IN ${d.jsonValues("?", "bigint")}`.
   * PostgreSQL casts them to `type` (its values come out as text); SQLite keeps JSON's types.
   */
  jsonValues(param: string, type: "bigint" | "text"): string;
  /** Case-insensitive text (ASCII letters): compare and sort `expr` this way. */
  nocase(expr: string): string;
}

const DIALECTS: Record<Engine, Dialect> = {
  sqlite: {
    engine: "sqlite",
    greatest: (a, b) => `MAX(${a}, ${b})`,
    jsonValues: (param) => `(SELECT value FROM json_each(${param}))`,
    nocase: (expr) => `${expr} COLLATE NOCASE`,
  },
  postgres: {
    engine: "postgres",
    greatest: (a, b) => `GREATEST(${a}, ${b})`,
    jsonValues: (param, type) => `(SELECT CAST(value AS ${type}) FROM json_array_elements_text(CAST(${param} AS json)) AS e(value))`,
    nocase: (expr) => `LOWER(${expr})`,
  },
};

/** Something (a statement, SQL text) built once for each engine. */
export function perEngine<T>(build: (dialect: Dialect) => T): Readonly<Record<Engine, T>> {
  return Object.freeze({ sqlite: build(DIALECTS.sqlite), postgres: build(DIALECTS.postgres) });
}
