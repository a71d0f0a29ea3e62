/**
 * User accounts (the users table): lookups by name and id, the account list with each one's last
 * activity, and the changes an admin makes. Ending an account's sessions and tokens is theirs
 * (auth-sessions.ts, access-tokens.ts).
 */
import type { Role } from "../../lib/farm/access";
import type { users } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

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

export const usersRepository = repository((sqlite) => {
  const byName = sqlite.prepare<[string], UserByName>("SELECT id, name, role, kind, disabled, password_hash FROM users WHERE name = ? COLLATE NOCASE");
  const byId = sqlite.prepare<[string], UserById>("SELECT id, name, role, kind, disabled FROM users WHERE id = ?");
  const insert = sqlite.prepare<[string, string, Role, UserKind, string | null, number, number]>(
    "INSERT INTO users (id, name, role, kind, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const list = sqlite.prepare<[], UserListRow>(
    `SELECT u.id, u.name, u.role, u.kind, u.disabled, u.created_at,
       MAX(COALESCE((SELECT MAX(last_seen_at) FROM auth_sessions WHERE user_id = u.id), 0), COALESCE((SELECT MAX(last_used_at) FROM access_tokens WHERE user_id = u.id), 0)) AS last_active_at
     FROM users u ORDER BY u.name COLLATE NOCASE`,
  );
  const setRole = sqlite.prepare<[Role, number, string]>("UPDATE users SET role = ?, updated_at = ? WHERE id = ?");
  const setDisabled = sqlite.prepare<[number, number, string]>("UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?");
  const setPassword = sqlite.prepare<[string, number, string]>("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?");
  const activeAdmins = sqlite.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled = 0 AND kind = 'person'");
  const people = sqlite.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE kind = 'person'");
  return {
    byName: (name: string): UserByName | undefined => byName.get(name),
    byId: (id: string): UserById | undefined => byId.get(id),
    insert(user: NewUserRow): void {
      insert.run(user.id, user.name, user.role, user.kind, user.passwordHash, user.now, user.now);
    },
    /** Every account, by name without regard to case. */
    list: (): UserListRow[] => list.all(),
    setRole(id: string, role: Role, now: number): void {
      setRole.run(role, now, id);
    },
    setDisabled(id: string, disabled: boolean, now: number): void {
      setDisabled.run(disabled ? 1 : 0, now, id);
    },
    setPassword(id: string, passwordHash: string, now: number): void {
      setPassword.run(passwordHash, now, id);
    },
    /** Enabled people who are admins (service accounts do not count: nobody signs in as one). */
    countActiveAdmins: (): number => activeAdmins.get()?.n ?? 0,
    countPeople: (): number => people.get()?.n ?? 0,
  };
});
