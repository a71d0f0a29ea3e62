/**
 * Test support: people with roles in a real farm database, and tRPC contexts for them, so router
 * and service tests call procedures exactly as a signed-in user of that role would.
 */
import type { Role } from "../../lib/farm/access";
import { callerContext, type Context } from "../router/trpc";
import { SYSTEM_ACTOR } from "../services/audit";
import type { Farm } from "../context/farm";
import { findUserByName, insertUser } from "./accounts";
import type { Principal } from "./principal";

/** A person with this role (created on first use; the password hash is a placeholder nobody can sign in with). */
export async function testPrincipal(farm: Farm, role: Role, name: string = `test-${role}`): Promise<Principal> {
  const existing = await findUserByName(farm, name);
  const id = existing?.id ?? (await farm.store.transaction((tx) => insertUser(tx, farm, SYSTEM_ACTOR, { name, role, password: "unused" }, "scrypt$invalid"))).id;
  return { userId: id, name, role, kind: "person", scope: null, via: "session", credentialId: `ses-test-${name}` };
}

/** The context of a signed-in call by a person with this role. */
export async function contextAs(farm: Farm, role: Role, name?: string): Promise<Context> {
  return callerContext(farm, await testPrincipal(farm, role, name));
}
