/**
 * Which token a `loom` verb sends to a server, in this order:
 *
 * 1. LOOM_TOKEN;
 * 2. the token `loom login --server URL` stored for that server (credentials.json in the user's
 *    config folder, 0600);
 * 3. the file LOOM_TOKEN_FILE names (another data folder's local-admin.token);
 * 4. for a server on this machine, `./data/local-admin.token` (what `npm start` keeps), so the
 *    embedded default works with no extra step.
 *
 * Each is sent as `Authorization: Bearer <token>`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface StoredLogin {
  token: string;
  user: string;
  tokenId: string;
  scope: string;
  expiresAt: number | null;
}

interface CredentialsFile {
  servers: Record<string, StoredLogin>;
}

export interface CredentialSources {
  /** LOOM_TOKEN */
  token?: string;
  /** LOOM_TOKEN_FILE */
  tokenFile?: string;
  /** The user's config folder for Loom ($XDG_CONFIG_HOME/loom or ~/.config/loom). */
  configDir: string | null;
  /** Where relative paths and ./data are looked up. */
  cwd: string;
}

export function configDirFrom(env: { XDG_CONFIG_HOME?: string | undefined; HOME?: string | undefined }): string | null {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, "loom");
  return env.HOME ? join(env.HOME, ".config", "loom") : null;
}

/** The key a login is stored under: the server's origin (`http://farm:3000`). */
export function serverKey(server: string): string {
  return new URL(server).origin;
}

function credentialsPath(configDir: string): string {
  return join(configDir, "credentials.json");
}

export function readLogins(configDir: string | null): CredentialsFile {
  if (!configDir) return { servers: {} };
  try {
    const parsed = JSON.parse(readFileSync(credentialsPath(configDir), "utf8")) as CredentialsFile;
    return parsed && typeof parsed.servers === "object" ? parsed : { servers: {} };
  } catch {
    return { servers: {} };
  }
}

/** Saves (or with null removes) the login for a server; the file is 0600 in a 0700 folder, written atomically. */
export function writeLogin(configDir: string, server: string, login: StoredLogin | null): string {
  const file = readLogins(configDir);
  if (login) file.servers[serverKey(server)] = login;
  else delete file.servers[serverKey(server)];
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  // mkdir leaves a folder that already existed as it was (a 0755 one made by another tool).
  if ((statSync(configDir).mode & 0o077) !== 0) chmodSync(configDir, 0o700);
  const path = credentialsPath(configDir);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

/** A server on this machine (where ./data/local-admin.token may be sent). */
export function isLocalServer(server: string): boolean {
  const host = new URL(server).hostname;
  return host === "127.0.0.1" || host === "localhost" || host === "[::1]" || host === "::1";
}

function readTokenFile(path: string): string | null {
  try {
    const token = readFileSync(path, "utf8").trim();
    return token || null;
  } catch {
    return null;
  }
}

/** LOOM_TOKEN_FILE names a file that holds no token. */
export class TokenFileError extends Error {}

export interface ResolvedToken {
  token: string;
  /** Where it came from, for error messages ("LOOM_TOKEN", "loom login", a file path). */
  source: string;
}

export function resolveToken(server: string, sources: CredentialSources): ResolvedToken | null {
  if (sources.token) return { token: sources.token, source: "LOOM_TOKEN" };
  const stored = readLogins(sources.configDir).servers[serverKey(server)];
  if (stored?.token) return { token: stored.token, source: `loom login (${stored.user})` };
  if (sources.tokenFile) {
    // Named on purpose, so a file that cannot be used is an error rather than a silent fall-through.
    const path = resolve(sources.cwd, sources.tokenFile);
    const token = readTokenFile(path);
    if (!token) throw new TokenFileError(`LOOM_TOKEN_FILE names ${path}, which ${existsSync(path) ? "is empty or cannot be read" : "does not exist"}`);
    return { token, source: path };
  }
  if (isLocalServer(server)) {
    const path = resolve(sources.cwd, "data", "local-admin.token");
    if (existsSync(path)) {
      const token = readTokenFile(path);
      if (token) return { token, source: path };
    }
  }
  return null;
}
