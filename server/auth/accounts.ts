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
import type { ReadTx, Tx } from "../store/repository";
import { usersRepository, type UserByName, type UserListRow } from "../store/users";
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

export function findUserByName(farm: Farm, name: string): Promise<UserByName | undefined> {
  return farm.store.read((tx) => usersRepository.byName(tx, name));
}

export function findUserById(farm: Farm, id: string) {
  return farm.store.read((tx) => usersRepository.byId(tx, id));
}

/** Whether any person has an account yet (the first-start setup is open until one has). */
export function hasPeople(farm: Farm): Promise<boolean> {
  return farm.store.read((tx) => hasPeopleIn(tx));
}

/** hasPeople, in the caller's unit. */
export async function hasPeopleIn(tx: ReadTx): Promise<boolean> {
  return (await usersRepository.countPeople(tx)) > 0;
}

export async function checkNewUser(farm: Farm, name: string, role: string): Promise<void> {
  if (!USER_NAME.test(name)) throw new AppError("BAD_REQUEST", "a user name is 3 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit");
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError("BAD_REQUEST", `role must be one of ${ROLES.join(", ")}`);
  if (await findUserByName(farm, name)) throw new AppError("CONFLICT", `a user named '${name}' already exists`);
}

export interface NewUser {
  name: string;
  role: Role;
  /** null: a service account (no password; it acts through tokens only). */
  password: string | null;
}

/** Creates an account (the password hashed off the event loop first, with no unit open). */
export async function createUser(farm: Farm, actor: Actor, input: NewUser): Promise<UserView> {
  await checkNewUser(farm, input.name, input.role);
  if (input.password !== null) {
    const problem = passwordProblem(input.password, input.name);
    if (problem) throw new AppError("BAD_REQUEST", problem);
  }
  const hash = input.password === null ? null : await hashPassword(input.password);
  return farm.store.transaction((tx) => insertUser(tx, farm, actor, input, hash));
}

/** The part of createUser that writes, inside the caller's unit (also the first-start setup's). */
export async function insertUser(tx: Tx, farm: Farm, actor: Actor, input: NewUser, passwordHash: string | null): Promise<UserView> {
  const now = farm.now();
  const id = newId("usr");
  const kind = input.password === null && passwordHash === null ? "service" : "person";
  // Checked again inside the unit, and by the unique index for a unit that inserted it since (PostgreSQL).
  const taken = () => new AppError("CONFLICT", `a user named '${input.name}' already exists`);
  if (await usersRepository.byName(tx, input.name)) throw taken();
  try {
    await usersRepository.insert(tx, { id, name: input.name, role: input.role, kind, passwordHash, now });
  } catch (error) {
    throw usersRepository.isDuplicateName(error) ? taken() : error;
  }
  await audit(tx, farm, actor, { action: "user.create", target: { kind: "user", id: input.name }, after: { role: input.role, kind } });
  return { id, name: input.name, role: input.role, kind, disabled: false, createdAt: now, lastActiveAt: null };
}

function userViews(rows: readonly UserListRow[]): UserView[] {
  return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, kind: r.kind, disabled: r.disabled === 1, createdAt: r.created_at, lastActiveAt: r.last_active_at || null }));
}

export async function listUsers(farm: Farm): Promise<UserView[]> {
  return userViews(await farm.store.read((tx) => usersRepository.list(tx)));
}

async function requireUser(tx: ReadTx, name: string): Promise<UserByName> {
  const user = await usersRepository.byName(tx, name);
  if (!user) throw new AppError("NOT_FOUND", `no user named '${name}'`);
  return user;
}

/**
 * The farm keeps at least one enabled person who is an admin (else nobody could manage it). A
 * unit that changes a role or disables an account locks the admins' rows first, then reads the
 * account (`admins`: lockActiveAdmins' answer): two such units take turns on PostgreSQL too, the
 * later one deciding on what the earlier one committed.
 */
function keepAnAdmin(admins: readonly string[], user: { id: string; role: Role; disabled: number; kind: string }, change: string): void {
  if (user.kind !== "person" || user.role !== "admin" || user.disabled) return;
  if (!admins.some((id) => id !== user.id)) throw new AppError("CONFLICT", `${change} would leave the farm without an enabled admin; make someone else an admin first`);
}

export async function setUserRole(farm: Farm, actor: Actor, name: string, role: Role): Promise<UserView> {
  if (!(ROLES as readonly string[]).includes(role)) throw new AppError("BAD_REQUEST", `role must be one of ${ROLES.join(", ")}`);
  const changed = await farm.store.transaction(async (tx) => {
    const admins = await usersRepository.lockActiveAdmins(tx);
    const user = await requireUser(tx, name);
    if (user.role !== role) {
      if (role !== "admin") keepAnAdmin(admins, user, `making ${name} ${role}`);
      await usersRepository.setRole(tx, user.id, role, farm.now());
      await audit(tx, farm, actor, { action: "user.set-role", target: { kind: "user", id: user.name }, before: { role: user.role }, after: { role } });
    }
    return viewOf(tx, name);
  });
  accessChanged(farm);
  return changed;
}

export async function setUserDisabled(farm: Farm, actor: Actor, name: string, disabled: boolean): Promise<UserView> {
  const changed = await farm.store.transaction(async (tx) => {
    const admins = await usersRepository.lockActiveAdmins(tx);
    const user = await requireUser(tx, name);
    if (Boolean(user.disabled) !== disabled) {
      if (disabled) keepAnAdmin(admins, user, `disabling ${name}`);
      const now = farm.now();
      await usersRepository.setDisabled(tx, user.id, disabled, now);
      if (disabled) {
        await authSessionsRepository.revokeAllOfUser(tx, user.id, now);
        await accessTokensRepository.revokeAllOfUser(tx, user.id, now);
      }
      await audit(tx, farm, actor, { action: disabled ? "user.disable" : "user.enable", target: { kind: "user", id: user.name } });
    }
    return viewOf(tx, name);
  });
  accessChanged(farm);
  return changed;
}

/** Sets a person's password; every session of theirs ends (tokens stay: they were made deliberately). */
export async function setUserPassword(farm: Farm, actor: Actor, name: string, password: string): Promise<void> {
  const user = await farm.store.read((tx) => requireUser(tx, name));
  if (user.kind !== "person") throw new AppError("BAD_REQUEST", `'${name}' is a service account: it has no password`);
  const problem = passwordProblem(password, name);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  // Hashed with no unit open: the hash takes tens of milliseconds on the thread pool.
  const hash = await hashPassword(password);
  await farm.store.transaction(async (tx) => {
    const now = farm.now();
    await usersRepository.setPassword(tx, user.id, hash, now);
    await authSessionsRepository.revokeAllOfUser(tx, user.id, now);
    await audit(tx, farm, actor, { action: "user.set-password", target: { kind: "user", id: user.name } });
  });
  accessChanged(farm);
}

/** The account as listed, after the unit's change. */
async function viewOf(tx: ReadTx, name: string): Promise<UserView> {
  const found = userViews(await usersRepository.list(tx)).find((u) => u.name === name);
  if (!found) throw new AppError("NOT_FOUND", `no user named '${name}'`);
  return found;
}
