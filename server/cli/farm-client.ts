/**
 * The farm server's API as the `loom submit` / `loom job …` commands call it: a tRPC client over
 * HTTP (the same routers the portal uses) sending the caller's token (credentials.ts), and job
 * parameter values made JSON-safe for the wire.
 */
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { ParameterInput, SourceNode } from "../../lib/openjd";
import type { AppRouter } from "../router";
import { UsageError } from "./args";
import { configDirFrom, isLocalServer, resolveToken, serverKey, TokenFileError, type CredentialSources, type ResolvedToken } from "./credentials";

export const DEFAULT_SERVER = "http://127.0.0.1:3000";

export type FarmClient = ReturnType<typeof farmClient>;

export function farmClient(server: string, token: string | null) {
  let url: URL;
  try {
    url = new URL("/api/trpc", server);
  } catch {
    throw new UsageError(`--server '${server}' is not a URL`);
  }
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: url.toString(), headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })] });
}

/** How a verb reaches a server: the URL (--server, LOOM_SERVER, the local default) and where its token comes from. */
export interface FarmAccess {
  server?: string;
  credentials?: Partial<CredentialSources>;
}

/** The server URL: --server, else LOOM_SERVER, else the local default. */
export function serverUrl(flag: string | undefined, environment: string | undefined): string {
  return flag ?? environment ?? DEFAULT_SERVER;
}

/** The server's URL and a client that sends the token credentials.ts picks for it. */
export function connect(flag: string | undefined, access: FarmAccess, cwd: string): { server: string; client: FarmClient; token: ResolvedToken | null } {
  const server = serverUrl(flag, access.server);
  try {
    serverKey(server);
  } catch {
    throw new UsageError(`--server '${server}' is not a URL`);
  }
  let token: ResolvedToken | null;
  try {
    token = resolveToken(server, { configDir: configDirFrom({}), ...access.credentials, cwd: access.credentials?.cwd ?? cwd });
  } catch (error) {
    if (error instanceof TokenFileError) throw new UsageError(error.message);
    throw error;
  }
  return { server, client: farmClient(server, token?.token ?? null), token };
}

type Wire = string | boolean | null | Wire[] | { [key: string]: Wire };

/** Numbers travel as their written text (so `1.50` and 64-bit integers arrive exactly as given). */
export function toWire(input: ParameterInput): Wire {
  if (input === null) return null;
  if (typeof input === "string" || typeof input === "boolean") return input;
  if (typeof input === "number" || typeof input === "bigint") return String(input);
  if (Array.isArray(input)) return input.map((item) => toWire(item as ParameterInput));
  return nodeToWire(input as SourceNode);
}

function nodeToWire(node: SourceNode): Wire {
  switch (node.kind) {
    case "object":
      return Object.fromEntries(node.entries.map((e) => [e.key, nodeToWire(e.value)]));
    case "array":
      return node.items.map(nodeToWire);
    case "int":
    case "float":
      return node.text;
    case "null":
      return null;
    default:
      return node.value;
  }
}

/**
 * A failed call as one line: what the server said, or that it could not be reached. A refused
 * credential says which token was sent (`token`: what connect() resolved) and how to get a good one.
 */
export function describeClientError(error: unknown, server: string, token?: ResolvedToken | null): string {
  if (error instanceof TRPCClientError) {
    const cause = (error as TRPCClientError<AppRouter>).cause as { code?: string } | undefined;
    if (cause?.code === "ECONNREFUSED" || /fetch failed/i.test(error.message)) return `cannot reach the Loom server at ${server} (is it running? start it with 'npm start')`;
    const code = (error as TRPCClientError<AppRouter>).data?.code;
    if (code === "UNAUTHORIZED" && token !== undefined) return `${error.message}: ${signInHint(server, token)}`;
    return error.message;
  }
  return (error as Error).message ?? String(error);
}

function signInHint(server: string, token: ResolvedToken | null): string {
  const login = `'loom login --server ${serverKey(server)}'`;
  if (token) return `the token from ${token.source} was refused; sign in again with ${login}, or set LOOM_TOKEN`;
  const local = isLocalServer(server) ? ", or on the server's machine run 'loom' where ./data is its data folder (or set LOOM_TOKEN_FILE=<data folder>/local-admin.token)" : "";
  return `no token was sent; sign in with ${login}, set LOOM_TOKEN${local}`;
}
