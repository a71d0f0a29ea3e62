/**
 * User accounts: create, list, change role, disable or enable, set a password. Each change is
 * audited in its own transaction; disabling an account revokes its sessions and tokens at once
 * (a disabled account is also refused at every call, so nothing in flight outlives it).
 */
import type Database from "better-sqlite3";
import { passwordProblem, ROLES, USER_NAME, type Role } from "../../lib/farm/access";
import { perDatabase } from "../db/per-database";
import { audit, type Actor } from "../services/audit";
import { AppError } from "../services/errors";
import type { Farm } from "../services/farm";
import { hashPassword } from "./passwords";
import { newId } from "./secrets";
import { accessChanged } from "./streams";

export interface UserView {
  id: string;
  name: string;
  role: Role;
  kind: "person" | "service";
  disabled: boolean;
  createdAt: number;
  /** The last time any of its sessions or tokens was used. */
  lastActiveAt: number | null;
}

interface UserRow {
  id: string;
  name: string;
  role: Role;
  kind: "person" | "service";
  disabled: number;
  created_at: number;
  last_active_at: number | null;
}

const statements = perDatabase((sqlite: Database.Database) => ({
  byName: sqlite.prepare<[string], { id: string; name: string; role: Role; kind: "person" | "service"; disabled: number; password_hash: string | null }>(
    "SELECT id, name, role, kind, disabled, password_hash FROM users WHERE name = ? COLLATE NOCASE",
  ),
  byId: sqlite.prepare<[string], { id: string; name: string; role: Role; kind: "person" | "service"; disabled: number }>("SELECT id, name, role, kind, disabled FROM users WHERE id = ?"),
  insert: sqlite.prepare<[string, string, string, string, string | null, number, number]>(
    "INSERT INTO users (id, name, role, kind, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ),
  list: sqlite.prepare<[], UserRow>(
    `SELECT u.id, u.name, u.role, u.kind, u.disabled, u.created_at,
       MAX(COALESCE((SELECT MAX(last_seen_at) FROM auth_sessions WHERE user_id = u.id), 0), COALESCE((SELECT MAX(last_used_at) FROM access_tokens WHERE user_id = u.id), 0)) AS last_active_at
     FROM users u ORDER BY u.name COLLATE NOCASE`,
  ),
  setRole: sqlite.prepare<[string, number, string]>("UPDATE users SET role = ?, updated_at = ? WHERE id = ?"),
  setDisabled: sqlite.prepare<[number, number, string]>("UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?"),
  setPassword: sqlite.prepare<[string, number, string]>("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?"),
  revokeSessions: sqlite.prepare<[number, string]>("UPDATE auth_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL"),
  revokeTokens: sqlite.prepare<[number, string]>("UPDATE access_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL"),
  activeAdmins: sqlite.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE role = 'admin' AND disabled = 0 AND kind = 'person'"),
  people: sqlite.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM users WHERE kind = 'person'"),
}));

export type UserLookup = NonNullable<ReturnType<ReturnType<typeof statements>["byName"]["get"]>>;

export function findUserByName(farm: Farm, name: string): UserLookup | undefined {
  return statements(farm.store.sqlite).byName.get(name);
}

export function findUserById(farm: Farm, id: string) {
  return statements(farm.store.sqlite).byId.get(id);
}

/** Whether any person has an account yet (the first-start setup is open until one has). */
export function hasPeople(farm: Farm): boolean {
  return (statements(farm.store.sqlite).people.get()?.n ?? 0) > 0;
}

export function checkNewUser(farm: Farm, name: string, role: string): void {
  if (!USER_NAME.test(name)) throw new AppError("BAD_REQUEST", "a user name is 3 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError("BAD_REQUEST", `role must be one of ${ROLES.join(", ")}`);
  if (findUserByName(farm, name)) throw new AppError("CONFLICT", `a user named '${name}' already exists`);
}

export interface NewUser {
  name: string;
  role: Role;
  /** null: a service account (no password; it acts through tokens only). */
  password: string | null;
}

/** Creates an account (the password hashed off the event loop first). */
export async function createUser(farm: Farm, actor: Actor, input: NewUser): Promise<UserView> {
  checkNewUser(farm, input.name, input.role);
  if (input.password !== null) {
    const problem = passwordProblem(input.password, input.name);
    if (problem) throw new AppError("BAD_REQUEST", problem);
  }
  const hash = input.password === null ? null : await hashPassword(input.password);
  return insertUser(farm, actor, input, hash);
}

/** The synchronous part of createUser (also used inside the first-start setup's transaction). */
export function insertUser(farm: Farm, actor: Actor, input: NewUser, passwordHash: string | null): UserView {
  const s = statements(farm.store.sqlite);
  const now = farm.now();
  const id = newId("usr");
  const kind = input.password === null && passwordHash === null ? "service" : "person";
  farm.store.transaction(() => {
    // Checked again inside the transaction: two creations of one name cannot both win.
    if (s.byName.get(input.name)) throw new AppError("CONFLICT", `a user named '${input.name}' already exists`);
    s.insert.run(id, input.name, input.role, kind, passwordHash, now, now);
    audit(farm, actor, { action: "user.create", target: { kind: "user", id: input.name }, after: { role: input.role, kind } });
  });
  return { id, name: input.name, role: input.role, kind, disabled: false, createdAt: now, lastActiveAt: null };
}

export function listUsers(farm: Farm): UserView[] {
  return statements(farm.store.sqlite)
    .list.all()
    .map((r) => ({ id: r.id, name: r.name, role: r.role, kind: r.kind, disabled: r.disabled === 1, createdAt: r.created_at, lastActiveAt: r.last_active_at || null }));
}

function requireUser(farm: Farm, name: string) {
  const user = findUserByName(farm, name);
  if (!user) throw new AppError("NOT_FOUND", `no user named '${name}'`);
  return user;
}

/** The farm keeps at least one enabled person who is an admin (else nobody could manage it). */
function keepAnAdmin(farm: Farm, user: { role: Role; disabled: number; kind: string }, change: string): void {
  if (user.kind !== "person" || user.role !== "admin" || user.disabled) return;
  if ((statements(farm.store.sqlite).activeAdmins.get()?.n ?? 0) <= 1) throw new AppError("CONFLICT", `${change} would leave the farm without an enabled admin; make someone else an admin first`);
}

export function setUserRole(farm: Farm, actor: Actor, name: string, role: Role): UserView {
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError("BAD_REQUEST", `role must be one of ${ROLES.join(", ")}`);
  const s = statements(farm.store.sqlite);
  farm.store.transaction(() => {
    const user = requireUser(farm, name);
    if (user.role === role) return;
    if (role !== "admin") keepAnAdmin(farm, user, `making ${name} ${role}`);
    s.setRole.run(role, farm.now(), user.id);
    audit(farm, actor, { action: "user.set-role", target: { kind: "user", id: user.name }, before: { role: user.role }, after: { role } });
  });
  accessChanged(farm);
  return viewOf(farm, name);
}

export function setUserDisabled(farm: Farm, actor: Actor, name: string, disabled: boolean): UserView {
  const s = statements(farm.store.sqlite);
  farm.store.transaction(() => {
    const user = requireUser(farm, name);
    if (Boolean(user.disabled) === disabled) return;
    if (disabled) keepAnAdmin(farm, user, `disabling ${name}`);
    const now = farm.now();
    s.setDisabled.run(disabled ? 1 : 0, now, user.id);
    if (disabled) {
      s.revokeSessions.run(now, user.id);
      s.revokeTokens.run(now, user.id);
    }
    audit(farm, actor, { action: disabled ? "user.disable" : "user.enable", target: { kind: "user", id: user.name } });
  });
  accessChanged(farm);
  return viewOf(farm, name);
}

/** Sets a person's password; every session of theirs ends (tokens stay: they were made deliberately). */
export async function setUserPassword(farm: Farm, actor: Actor, name: string, password: string): Promise<void> {
  const user = requireUser(farm, name);
  if (user.kind !== "person") throw new AppError("BAD_REQUEST", `'${name}' is a service account: it has no password`);
  const problem = passwordProblem(password, name);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  const hash = await hashPassword(password);
  const s = statements(farm.store.sqlite);
  farm.store.transaction(() => {
    const now = farm.now();
    s.setPassword.run(hash, now, user.id);
    s.revokeSessions.run(now, user.id);
    audit(farm, actor, { action: "user.set-password", target: { kind: "user", id: user.name } });
  });
  accessChanged(farm);
}

function viewOf(farm: Farm, name: string): UserView {
  const found = listUsers(farm).find((u) => u.name === name);
  if (!found) throw new AppError("NOT_FOUND", `no user named '${name}'`);
  return found;
}
