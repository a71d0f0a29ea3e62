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
export { statement } from "./engine/engine";
export type { ReadTx, Tx } from "./engine/engine";
