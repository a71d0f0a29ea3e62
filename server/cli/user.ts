/**
 * `loom user add|list|set-role|disable|enable|set-password` on the server's own shell: straight
 * on the data folder's database (SQLite in WAL mode lets this run while `loom serve` does; the
 * server reads accounts on every call, so a change counts from the next one). Whoever can read
 * the data folder owns the farm anyway, so this needs no sign-in; each change is audited as
 * `shell:<OS user>`.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { roleWithArticle, ROLES, type Role } from "../../lib/farm/access";
import { createUser, listUsers, setUserDisabled, setUserPassword, setUserRole, type UserView } from "../auth/accounts";
import { databaseFile } from "../db/connection";
import { shellActor } from "../services/audit";
import { AppError } from "../context/errors";
import { createFarm, type Farm } from "../context/farm";
import { parseArgs, UsageError } from "./args";
import { openDataStore, secureDataFolder, StartupError } from "./data-folder";
import type { CliIo } from "./io";
import { osUser } from "./os-user";
import { password } from "./prompt";

export const USER_USAGE =
  "usage: loom user add NAME --role ROLE [--password-stdin] | list [--json] | set-role NAME ROLE | disable NAME | enable NAME | set-password NAME [--password-stdin]  [--data ./data]";

/** The positionals and flags each verb takes (beyond --data). */
const VERBS: Record<string, { names: string[]; flags: string[] }> = {
  add: { names: ["NAME"], flags: ["--role", "--password-stdin"] },
  list: { names: [], flags: ["--json"] },
  "set-role": { names: ["NAME", "ROLE"], flags: [] },
  disable: { names: ["NAME"], flags: [] },
  enable: { names: ["NAME"], flags: [] },
  "set-password": { names: ["NAME"], flags: ["--password-stdin"] },
};

export async function runUser(argv: readonly string[], io: CliIo): Promise<number> {
  const [verb, ...rest] = argv;
  const spec = verb === undefined ? undefined : VERBS[verb];
  if (!spec) throw new UsageError(`${verb === undefined ? "user needs a command" : `unknown user command '${verb}'`}\n${USER_USAGE}`);
  const args = parseArgs(rest, { values: ["--data", "--role"], booleans: ["--password-stdin", "--json"] });
  for (const flag of [...args.values.keys(), ...args.booleans]) {
    if (flag !== "--data" && !spec.flags.includes(flag)) throw new UsageError(`user ${verb} does not take ${flag}`);
  }
  if (args.positionals.length !== spec.names.length) throw new UsageError(`user ${verb} takes ${spec.names.join(" ") || "no arguments"}\n${USER_USAGE}`);
  const [name = "", second] = args.positionals;
  const role = verb === "add" ? args.values.get("--role") : second;
  if ((verb === "add" || verb === "set-role") && !isRole(role)) throw new UsageError(role === undefined ? "user add needs --role ROLE" : `'${role}' is not a role: ${ROLES.join(", ")}`);
  const dataDir = resolve(io.cwd, args.values.get("--data") ?? "data");

  // Asked before the database is opened: a person typing holds no lock.
  const secret = verb === "add" || verb === "set-password" ? await password(io, { fromStdin: args.booleans.has("--password-stdin"), confirm: true, question: `Password for ${name}: ` }) : null;

  let farm: Farm;
  try {
    farm = openFarm(dataDir, verb === "add");
  } catch (error) {
    if (error instanceof StartupError) return fail(io, error.message);
    throw error;
  }
  const actor = shellActor(osUser());
  try {
    switch (verb) {
      case "add": {
        const user = await createUser(farm, actor, { name, role: role as Role, password: secret });
        io.out(`Created ${user.name} (${user.role}). They sign in on the portal, or with 'loom login'.`);
        return 0;
      }
      case "list": {
        const users = await listUsers(farm);
        io.out(args.booleans.has("--json") ? JSON.stringify(users, null, 2) : userTable(users));
        return 0;
      }
      case "set-role": {
        const user = await setUserRole(farm, actor, name, role as Role);
        io.out(`${user.name} is now ${roleWithArticle(user.role)} (from their next request on).`);
        return 0;
      }
      case "disable":
      case "enable": {
        const user = await setUserDisabled(farm, actor, name, verb === "disable");
        io.out(user.disabled ? `${user.name} is disabled: their sessions and tokens are revoked.` : `${user.name} is enabled; tokens revoked while disabled stay revoked.`);
        return 0;
      }
      case "set-password": {
        await setUserPassword(farm, actor, name, secret as string);
        io.out(`${name}'s password is set; their browser sessions were signed out.`);
        return 0;
      }
    }
    return 2;
  } catch (error) {
    if (error instanceof AppError) return fail(io, error.message);
    throw error;
  } finally {
    await farm.store.close();
  }
}

function isRole(value: string | undefined): value is Role {
  return (ROLES as readonly (string | undefined)[]).includes(value);
}

function fail(io: CliIo, message: string): number {
  io.err(`loom user: ${message}`);
  return 1;
}

/** The farm on the data folder's database; only `add` may create one (the first admin before the first start). */
function openFarm(dataDir: string, mayCreate: boolean): Farm {
  if (mayCreate) secureDataFolder(dataDir);
  else if (!existsSync(databaseFile(dataDir))) throw new StartupError(`no Loom database in ${dataDir} (give the server's data folder with --data)`);
  return createFarm(openDataStore(dataDir));
}

function userTable(users: readonly UserView[]): string {
  const rows = [["NAME", "ROLE", "KIND", "STATE", "LAST ACTIVE"]];
  for (const u of users) {
    rows.push([u.name, u.role, u.kind, u.disabled ? "disabled" : "enabled", u.lastActiveAt ? new Date(u.lastActiveAt).toISOString().slice(0, 16).replace("T", " ") : "never"]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n");
}
