/**
 * Worker credentials as the worker API checks them (server/services/authenticate-worker.ts): the
 * worker whose credential hash a request's bearer token has, and its pool's token generation, in
 * one indexed lookup per sync and log upload (a named statement).
 */
import type { pools, workers } from "../db/schema";
import { statement, type ReadTx } from "./repository";
import type { Raw, RawPick } from "./rows";

export type WorkerCredential = RawPick<typeof workers, "id" | "name" | "token_generation" | "removed_at"> &
  RawPick<typeof pools, "enabled" | "previous_token_expires_at"> & {
    /** Found by it, so never null here. */
    credential_hash: string;
    pool_id: Raw<typeof pools>["id"];
    pool_name: Raw<typeof pools>["name"];
    pool_generation: Raw<typeof pools>["token_generation"];
  };

const BY_CREDENTIAL_HASH = statement<WorkerCredential>(
  "worker-credentials.byCredentialHash",
  `SELECT w.id, w.name, w.credential_hash, w.token_generation, w.removed_at, p.id AS pool_id, p.name AS pool_name, p.enabled,
          p.token_generation AS pool_generation, p.previous_token_expires_at
   FROM workers w JOIN pools p ON p.id = w.pool_id WHERE w.credential_hash = ?`,
);

export const workerCredentialsRepository = {
  byCredentialHash: (tx: ReadTx, credentialHash: string): Promise<WorkerCredential | undefined> => tx.get(BY_CREDENTIAL_HASH, [credentialHash]),
};
