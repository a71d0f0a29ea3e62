/**
 * User accounts (the users table): lookups by name and id, the account list with each one's last
 * activity, and the changes an admin makes. Ending an account's sessions and tokens is theirs
 * (auth-sessions.ts, access-tokens.ts).
 */
import type { RunResult } from "./engine/engine";
import type { Role } from "../../lib/farm/access";
import type { users } from "../db/schema";
import { perEngine, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";
import { isUniqueViolation } from "./unique-violation";

export type UserKind = "person" | "service";

/** An account as sign-in and the admin's changes look it up (by name, without regard to case). */
export type UserByName = RawPick<typeof users, "id" | "name" | "role" | "kind" | "disabled" | "password_hash">;

export type UserById = RawPick<typeof users, "id" | "name" | "role" | "kind" | "disabled">;

/** A row of the account list: 0 in last_active_at when no session or token of it was ever used. */
export type UserListRow = RawPick<typeof users, "id" | "name" | "role" | "kind" | "disabled" | "created_at"> & { last_active_at: number };

export interface NewUserRow {
  id: string;
  name: string;
  role: Role;
  kind: UserKind;
  passwordHash: string | null;
  now: number;
}

// LOWER(): names compare without regard to ASCII case, the same on both engines.
const BY_NAME = "SELECT id, name, role, kind, disabled, password_hash FROM users WHERE LOWER(name) = LOWER(?)";
const BY_ID = "SELECT id, name, role, kind, disabled FROM users WHERE id = ?";
const INSERT = "INSERT INTO users (id, name, role, kind, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
const LIST = perEngine(
  (d) => `SELECT u.id, u.name, u.role, u.kind, u.disabled, u.created_at,
     ${d.greatest("COALESCE((SELECT MAX(last_seen_at) FROM auth_sessions WHERE user_id = u.id), 0)", "COALESCE((SELECT MAX(last_used_at) FROM access_tokens WHERE user_id = u.id), 0)")} AS last_active_at
   FROM users u ORDER BY LOWER(u.name), u.name`,
);
const SET_ROLE = "UPDATE users SET role = ?, updated_at = ? WHERE id = ?";
const SET_DISABLED = "UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?";
const SET_PASSWORD = "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?";
const NAME_KEY = { columns: "users.name", name: "users_name_unique" };
// Locked on PostgreSQL: a second unit doing the same waits for the first to end, then reads what it
// committed (READ COMMITTED reads a row it waited for anew); in id order, so two never deadlock.
// NO KEY: inserts that reference the rows (sign-ins, tokens) do not wait. SQLite's units take turns anyway.
const LOCK_ACTIVE_ADMINS = perEngine((d) => `SELECT id FROM users WHERE role = 'admin' AND disabled = FALSE AND kind = 'person' ORDER BY id${d.engine === "postgres" ? " FOR NO KEY UPDATE" : ""}`);
const PEOPLE = "SELECT COUNT(*) AS n FROM users WHERE kind = 'person'";

export const usersRepository = {
  byName: (tx: ReadTx, name: string): Promise<UserByName | undefined> => tx.get<UserByName>(BY_NAME, [name]),
  byId: (tx: ReadTx, id: string): Promise<UserById | undefined> => tx.get<UserById>(BY_ID, [id]),
  insert(tx: Tx, user: NewUserRow): Promise<RunResult> {
    return tx.run(INSERT, [user.id, user.name, user.role, user.kind, user.passwordHash, user.now, user.now]);
  },
  /** Whether `error` is insert's refusal of a name already taken (by a unit that inserted it since this one looked). */
  isDuplicateName: (error: unknown): boolean => isUniqueViolation(error, NAME_KEY),
  /** Every account, by name without regard to case. */
  list: (tx: ReadTx): Promise<UserListRow[]> => tx.all<UserListRow>(LIST[tx.engine]),
  setRole(tx: Tx, id: string, role: Role, now: number): Promise<RunResult> {
    return tx.run(SET_ROLE, [role, now, id]);
  },
  setDisabled(tx: Tx, id: string, disabled: boolean, now: number): Promise<RunResult> {
    return tx.run(SET_DISABLED, [disabled, now, id]);
  },
  setPassword(tx: Tx, id: string, passwordHash: string, now: number): Promise<RunResult> {
    return tx.run(SET_PASSWORD, [passwordHash, now, id]);
  },
  /**
   * The ids of enabled people who are admins (service accounts do not count: nobody signs in as
   * one), their rows locked until the unit ends: what a change that may remove one decides on.
   */
  lockActiveAdmins: async (tx: Tx): Promise<string[]> => (await tx.all<{ id: string }>(LOCK_ACTIVE_ADMINS[tx.engine])).map((r) => r.id),
  countPeople: async (tx: ReadTx): Promise<number> => (await tx.get<{ n: number }>(PEOPLE))?.n ?? 0,
};
