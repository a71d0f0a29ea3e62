/**
 * User accounts: create, list, change role, disable or enable, set a password. Each change is
 * audited in its own transaction; disabling an account revokes its sessions and tokens at once
 * (a disabled account is also refused at every call, so nothing in flight outlives it).
 */
import { passwordProblem, ROLES, USER_NAME, type Role } from "../../lib/farm/access";
import { audit, type Actor } from "../services/audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { accessTokensRepository } from "../store/access-tokens";
import { authSessionsRepository } from "../store/auth-sessions";
import { usersRepository, type UserByName } from "../store/users";
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

export function findUserByName(farm: Farm, name: string): UserByName | undefined {
  return usersRepository(farm.store).byName(name);
}

export function findUserById(farm: Farm, id: string) {
  return usersRepository(farm.store).byId(id);
}

/** Whether any person has an account yet (the first-start setup is open until one has). */
export function hasPeople(farm: Farm): boolean {
  return usersRepository(farm.store).countPeople() > 0;
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
  const users = usersRepository(farm.store);
  const now = farm.now();
  const id = newId("usr");
  const kind = input.password === null && passwordHash === null ? "service" : "person";
  farm.store.transaction(() => {
    // Checked again inside the transaction: two creations of one name cannot both win.
    if (users.byName(input.name)) throw new AppError("CONFLICT", `a user named '${input.name}' already exists`);
    users.insert({ id, name: input.name, role: input.role, kind, passwordHash, now });
    audit(farm, actor, { action: "user.create", target: { kind: "user", id: input.name }, after: { role: input.role, kind } });
  });
  return { id, name: input.name, role: input.role, kind, disabled: false, createdAt: now, lastActiveAt: null };
}

export function listUsers(farm: Farm): UserView[] {
  return usersRepository(farm.store)
    .list()
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
  if (usersRepository(farm.store).countActiveAdmins() <= 1) throw new AppError("CONFLICT", `${change} would leave the farm without an enabled admin; make someone else an admin first`);
}

export function setUserRole(farm: Farm, actor: Actor, name: string, role: Role): UserView {
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError("BAD_REQUEST", `role must be one of ${ROLES.join(", ")}`);
  farm.store.transaction(() => {
    const user = requireUser(farm, name);
    if (user.role === role) return;
    if (role !== "admin") keepAnAdmin(farm, user, `making ${name} ${role}`);
    usersRepository(farm.store).setRole(user.id, role, farm.now());
    audit(farm, actor, { action: "user.set-role", target: { kind: "user", id: user.name }, before: { role: user.role }, after: { role } });
  });
  accessChanged(farm);
  return viewOf(farm, name);
}

export function setUserDisabled(farm: Farm, actor: Actor, name: string, disabled: boolean): UserView {
  farm.store.transaction(() => {
    const user = requireUser(farm, name);
    if (Boolean(user.disabled) === disabled) return;
    if (disabled) keepAnAdmin(farm, user, `disabling ${name}`);
    const now = farm.now();
    usersRepository(farm.store).setDisabled(user.id, disabled, now);
    if (disabled) {
      authSessionsRepository(farm.store).revokeAllOfUser(user.id, now);
      accessTokensRepository(farm.store).revokeAllOfUser(user.id, now);
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
  farm.store.transaction(() => {
    const now = farm.now();
    usersRepository(farm.store).setPassword(user.id, hash, now);
    authSessionsRepository(farm.store).revokeAllOfUser(user.id, now);
    audit(farm, actor, { action: "user.set-password", target: { kind: "user", id: user.name } });
  });
  accessChanged(farm);
}

function viewOf(farm: Farm, name: string): UserView {
  const found = listUsers(farm).find((u) => u.name === name);
  if (!found) throw new AppError("NOT_FOUND", `no user named '${name}'`);
  return found;
}
