/**
 * The first start of a farm, and the embedded default's two-command promise.
 *
 * - With no person's account yet, the server opens a one-time setup address: a random token
 *   (or LOOM_SETUP_TOKEN, for automated installs) whose hash is kept until someone uses it to
 *   create the first admin. Each start while it is unused prints a new one.
 * - The data folder keeps `local-admin.token` (0600): a token of the `local-admin` service
 *   account that `loom` verbs on this machine send when no other token is set. It is made when
 *   the file is missing; a revoked one is left revoked (delete the file to get a new one).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { passwordProblem } from "../../lib/farm/access";
import { audit, SYSTEM_ACTOR, type Actor } from "../services/audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { accessTokensRepository } from "../store/access-tokens";
import { serverStateRepository } from "../store/server-state";
import type { ReadTx } from "../store/repository";
import { usersRepository } from "../store/users";
import { issueToken, type IssuedToken } from "./access-tokens";
import { checkNewUser, hasPeopleIn, insertUser } from "./accounts";
import { hashPassword } from "./passwords";
import type { RequestOrigin } from "./principal";
import { hashSecret, newSecret, sameHash } from "./secrets";
import { startSession, type SignedIn } from "./sign-in";

export const LOCAL_ADMIN = "local-admin";
export const LOCAL_ADMIN_TOKEN_FILE = "local-admin.token";
const SETUP_KEY = "setup-token-hash";

/** The setup token to print, or null when the farm already has people. */
export function openSetup(farm: Farm, preset: string | undefined): Promise<string | null> {
  return farm.store.transaction(async (tx) => {
    if (await hasPeopleIn(tx)) {
      await serverStateRepository.remove(tx, SETUP_KEY);
      return null;
    }
    const token = preset ?? newSecret("setup");
    await serverStateRepository.set(tx, SETUP_KEY, hashSecret(token), farm.now());
    return token;
  });
}

/** Whether `token` opens the setup page now. */
export function setupTokenValid(farm: Farm, token: string): Promise<boolean> {
  return farm.store.read((tx) => setupTokenValidIn(tx, token), { consistent: true });
}

/** setupTokenValid, in the caller's unit. */
async function setupTokenValidIn(tx: ReadTx, token: string): Promise<boolean> {
  const stored = await serverStateRepository.get(tx, SETUP_KEY);
  return stored !== undefined && sameHash(stored, hashSecret(token)) && !(await hasPeopleIn(tx));
}

/** Creates the first admin with the setup token, and signs them in. The token is spent. */
export async function completeSetup(farm: Farm, input: { token: string; name: string; password: string }, origin: RequestOrigin): Promise<SignedIn> {
  const invalid = () => new AppError("FORBIDDEN", "this setup address is no longer valid (it was used, or the server printed a newer one); sign in instead");
  if (!(await setupTokenValid(farm, input.token))) throw invalid();
  await checkNewUser(farm, input.name, "admin");
  const problem = passwordProblem(input.password, input.name);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  const hash = await hashPassword(input.password);
  return farm.store.transaction(async (tx) => {
    // Again inside the unit, and the token spent before anything is written: of two setups
    // racing, only the one whose DELETE removed it goes on (on PostgreSQL the other's DELETE
    // waits for the first to commit, then removes nothing).
    if (!(await setupTokenValidIn(tx, input.token))) throw invalid();
    if ((await serverStateRepository.remove(tx, SETUP_KEY)).changes !== 1) throw invalid();
    const actor: Actor = { kind: "anonymous", id: null, name: input.name, via: "setup", address: origin.address, userAgent: origin.userAgent };
    const user = await insertUser(tx, farm, actor, { name: input.name, role: "admin", password: input.password }, hash);
    const self: Actor = { ...actor, kind: "user", id: user.id };
    await audit(tx, farm, self, { action: "auth.setup", target: { kind: "user", id: user.name }, after: { role: "admin" } });
    return startSession(tx, farm, user.id, self, origin);
  });
}

export type LocalAdminState = "created" | "kept" | "revoked";

/** The local admin account and its token file in the data folder (see the header). */
export async function ensureLocalAdmin(farm: Farm, dataDir: string): Promise<LocalAdminState> {
  const file = join(dataDir, LOCAL_ADMIN_TOKEN_FILE);
  const onDisk = existsSync(file) ? readFileSync(file, "utf8").trim() : null;
  const outcome = await farm.store.transaction(async (tx): Promise<LocalAdminState | IssuedToken> => {
    let user = await usersRepository.byName(tx, LOCAL_ADMIN);
    if (!user) {
      await insertUser(tx, farm, SYSTEM_ACTOR, { name: LOCAL_ADMIN, role: "admin", password: null }, null);
      user = (await usersRepository.byName(tx, LOCAL_ADMIN))!;
    }
    if (onDisk !== null) {
      const state = await accessTokensRepository.stateByTokenHash(tx, hashSecret(onDisk));
      if (state && state.revoked_at === null && !state.disabled) return "kept";
      if (state) return "revoked";
      // A file whose token this database never issued (another farm's data, a copied folder): replace it.
    }
    return issueToken(tx, farm, SYSTEM_ACTOR, { userId: user.id, role: "admin", name: "local admin (data folder)", scope: "admin", expiresInDays: null });
  });
  if (typeof outcome === "string") return outcome;
  // Written once the token is stored: a file never holds a token the database does not know.
  writeFileSync(file, `${outcome.token}\n`, { mode: 0o600 });
  return "created";
}
