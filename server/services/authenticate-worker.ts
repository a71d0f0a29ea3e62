/**
 * Worker credentials: the bearer token a worker gets when it enrolls (register-worker.ts) and
 * sends on every sync and log upload. It speaks for that one worker: the pool's enrollment token,
 * a personal access token or a browser session never do, and a report naming another worker is
 * refused however valid its lease epoch. One indexed lookup by the token's SHA-256 per call (the
 * sync hot path): the worker and its pool in a single row.
 */
import { hashSecret, SECRET_PREFIXES, sameHash } from "../auth/secrets";
import { workerCredentialsRepository, type WorkerCredential } from "../store/worker-credentials";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

/** The worker a credential belongs to, as the sync and log services use it. */
export interface WorkerIdentity {
  workerId: string;
  name: string;
  poolId: string;
  poolName: string;
  /** A disabled pool's workers get no new work. */
  poolEnabled: boolean;
}

/** The worker `token` is the credential of, or UNAUTHORIZED saying why (the agent enrolls again on 401). */
export async function authenticateWorker(farm: Farm, token: string): Promise<WorkerIdentity> {
  const hash = hashSecret(token);
  const row = await farm.store.read((tx) => workerCredentialsRepository.byCredentialHash(tx, hash));
  if (!row || !sameHash(row.credential_hash, hash)) throw new AppError("UNAUTHORIZED", unknownCredential(token));
  if (row.removed_at !== null) throw new AppError("UNAUTHORIZED", `worker ${row.id} was removed: enroll again with the pool's token`);
  if (!generationValid(row, farm.now())) {
    throw new AppError("UNAUTHORIZED", `worker ${row.id} enrolled with a token of pool ${row.pool_name} that was rotated out: enroll again with the pool's current token`);
  }
  return { workerId: row.id, name: row.name, poolId: row.pool_id, poolName: row.pool_name, poolEnabled: row.enabled === 1 };
}

/** The current generation, or the previous one during the rotation's grace period. */
function generationValid(row: WorkerCredential, now: number): boolean {
  if (row.token_generation >= row.pool_generation) return true;
  return row.token_generation === row.pool_generation - 1 && row.previous_token_expires_at !== null && row.previous_token_expires_at > now;
}

function unknownCredential(token: string): string {
  if (token.startsWith(SECRET_PREFIXES.token) || token.startsWith(SECRET_PREFIXES.session)) return "personal access tokens and sign-in sessions do not work on the worker API";
  if (token.startsWith(SECRET_PREFIXES.enrollment)) return "a pool's token only enrolls (POST /api/worker/register): send the credential the registration answered with";
  return "unknown or revoked worker credential: enroll again with the pool's token";
}

/** A body names the worker it reports for: only that worker's own credential may send it. */
export function checkSpeaksFor(worker: WorkerIdentity, workerId: string): void {
  if (workerId !== worker.workerId) throw new AppError("FORBIDDEN", `this credential belongs to worker ${worker.workerId}, not ${workerId}`);
}
