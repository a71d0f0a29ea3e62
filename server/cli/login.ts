/**
 * `loom login` and `loom logout`. Login trades a name and password for a personal access token
 * (auth.tokenFromPassword) and keeps it in the user's config folder (credentials.ts: 0600 in
 * 0700), where every later `loom` verb finds it for that server; the token itself is never
 * printed. Logging in again replaces the stored token and revokes the old one. Logout revokes
 * the stored token on the server, then forgets it.
 */
import { hostname } from "node:os";
import { TRPCClientError } from "@trpc/client";
import { TOKEN_SCOPES, type TokenScope } from "../../lib/farm/access";
import { TOKEN_MAX_DAYS, TOKEN_NAME_MAX } from "../auth/access-tokens";
import { parseArgs, UsageError } from "./args";
import { isLocalServer, readLogins, serverKey, writeLogin } from "./credentials";
import { describeClientError, farmClient, serverUrl, type FarmAccess } from "./farm-client";
import type { CliIo } from "./io";
import { osUser } from "./os-user";
import { password, userName } from "./prompt";

export const LOGIN_USAGE = "usage: loom login [--server URL] [--user NAME] [--password-stdin] [--scope read|submit|admin] [--expires-days 90]";
export const LOGOUT_USAGE = "usage: loom logout [--server URL]";

const DEFAULT_DAYS = 90;

export async function runLogin(argv: readonly string[], io: CliIo, access: FarmAccess = {}): Promise<number> {
  const args = parseArgs(argv, { values: ["--server", "--user", "--scope", "--expires-days"], booleans: ["--password-stdin"] });
  if (args.positionals.length > 0) throw new UsageError(`login takes no arguments (the user is --user NAME)\n${LOGIN_USAGE}`);
  const scope = (args.values.get("--scope") ?? "submit") as TokenScope;
  if (!TOKEN_SCOPES.includes(scope)) throw new UsageError(`--scope is one of ${TOKEN_SCOPES.join(", ")}`);
  const daysText = args.values.get("--expires-days") ?? String(DEFAULT_DAYS);
  const days = /^\d+$/.test(daysText) ? Number(daysText) : NaN;
  if (!(days >= 1 && days <= TOKEN_MAX_DAYS)) throw new UsageError(`--expires-days takes a whole number of days from 1 to ${TOKEN_MAX_DAYS}`);
  const server = checkedServer(args.values.get("--server"), access);
  const configDir = access.credentials?.configDir;
  if (!configDir) return fail(io, "login", "there is no config folder to keep the token in (set HOME or XDG_CONFIG_HOME)");
  if (!server.startsWith("https:") && !isLocalServer(server)) {
    io.err(`loom login: warning: ${serverKey(server)} is plain HTTP: your password and the token cross the network unencrypted`);
  }

  const name = await userName(io, args.values.get("--user"), "--user");
  const secret = await password(io, { fromStdin: args.booleans.has("--password-stdin"), confirm: false, question: `Password for ${name} on ${serverKey(server)}: ` });
  const tokenName = `loom login (${osUser()}@${hostname()})`.slice(0, TOKEN_NAME_MAX);
  let issued;
  let me;
  try {
    issued = await farmClient(server, null).auth.tokenFromPassword.mutate({ name, password: secret, tokenName, scope, expiresInDays: days });
    // Asked with the new token: shows it works, and who it speaks for.
    ({ me } = await farmClient(server, issued.token).auth.me.query());
  } catch (error) {
    return fail(io, "login", describeClientError(error, server));
  }
  if (!me) return fail(io, "login", "the server did not accept the token it just issued");

  const previous = readLogins(configDir).servers[serverKey(server)];
  const path = writeLogin(configDir, server, { token: issued.token, user: me.name, tokenId: issued.tokenId, scope: issued.scope, expiresAt: issued.expiresAt });
  if (previous && previous.tokenId !== issued.tokenId) {
    // The replaced token is of no use any more; a failure here (already revoked, expired) is fine.
    await farmClient(server, previous.token)
      .tokens.revoke.mutate({ tokenId: previous.tokenId })
      .catch(() => undefined);
  }
  io.out(`Signed in to ${serverKey(server)} as ${me.name} (${me.role}).`);
  io.out(`Token '${tokenName}': scope ${issued.scope}, ${issued.expiresAt === null ? "never expires" : `expires ${day(issued.expiresAt)}`}; kept in ${path} (readable by you only).`);
  if (access.credentials?.token) io.err("loom login: note: LOOM_TOKEN is set in this environment, and it is sent instead of this login until you unset it");
  return 0;
}

export async function runLogout(argv: readonly string[], io: CliIo, access: FarmAccess = {}): Promise<number> {
  const args = parseArgs(argv, { values: ["--server"] });
  if (args.positionals.length > 0) throw new UsageError(`logout takes no arguments\n${LOGOUT_USAGE}`);
  const server = checkedServer(args.values.get("--server"), access);
  const configDir = access.credentials?.configDir ?? null;
  const stored = readLogins(configDir).servers[serverKey(server)];
  const envNote = () => access.credentials?.token && io.err("loom logout: note: LOOM_TOKEN is still set in this environment, and 'loom' keeps sending it");
  if (!stored || !configDir) {
    io.out(`Not signed in to ${serverKey(server)}: no token is stored for it.`);
    envNote();
    return 0;
  }

  let problem: string | null = null;
  try {
    await farmClient(server, stored.token).tokens.revoke.mutate({ tokenId: stored.tokenId });
  } catch (error) {
    // A token the server already refuses (revoked, expired, deleted) is as good as revoked.
    if (!(error instanceof TRPCClientError && error.data?.code === "UNAUTHORIZED")) problem = describeClientError(error, server);
  }
  const path = writeLogin(configDir, server, null);
  envNote();
  if (problem) {
    io.err(`loom logout: the token could not be revoked on the server: ${problem}`);
    const until = stored.expiresAt === null ? "" : ` until ${day(stored.expiresAt)}`;
    io.out(`Removed ${stored.user}'s token for ${serverKey(server)} from ${path}, but it stays valid${until}: revoke it on the portal's Tokens page.`);
    return 1;
  }
  io.out(`Signed out of ${serverKey(server)}: ${stored.user}'s token is revoked and removed from ${path}.`);
  return 0;
}

function checkedServer(flag: string | undefined, access: FarmAccess): string {
  const server = serverUrl(flag, access.server);
  try {
    serverKey(server);
  } catch {
    throw new UsageError(`--server '${server}' is not a URL`);
  }
  return server;
}

function fail(io: CliIo, verb: string, message: string): number {
  io.err(`loom ${verb}: ${message}`);
  return 1;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
