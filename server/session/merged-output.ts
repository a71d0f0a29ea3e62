/**
 * One channel for an action's stdout and stderr, so lines arrive in the order the program wrote
 * them (the reference runtimes dup stderr onto stdout; reference behaviour §3.3). Node cannot
 * give two stdio slots the same pipe, and has no socketpair(), so we build the pair ourselves:
 * the child gets the connecting end of a Unix socket as fd 1 and fd 2 (the same kind of stream
 * Node's own 'pipe' stdio is on POSIX, where libuv uses a socketpair) and we read the accepted end.
 *
 * Setting up a listener per action costs a temporary directory, a listen and a removal — about a
 * millisecond, a third of spawning `echo` — so one listener serves the whole process, in a
 * private (0700) directory removed at exit. Each connection first sends a random token, written
 * before the child exists, and the accepted end is paired by it: concurrent actions cannot be
 * crossed, and a stray connection from another process of ours is dropped. When the channel
 * cannot be set up (or on Windows) we fall back to two pipes, one reader each.
 */
import type { ChildProcess, StdioOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";

export interface OutputWiring {
  readonly stdio: StdioOptions;
  /** Set when stdout and stderr could not be merged (their relative order is then approximate). */
  readonly fallbackReason: string | null;
  /** After spawn: the streams to read. Closes the parent's copy of the child's end. */
  attach(child: ChildProcess): Readable[];
  /** Releases everything when no child was spawned. */
  dispose(): void;
}

const TOKEN_BYTES = 16;
/** A pairing that has not completed in this long is abandoned (the fallback takes over). */
const PAIRING_LIMIT_MS = 5_000;

export async function openOutputWiring(): Promise<OutputWiring> {
  if (process.platform === "win32") return separatePipes("not supported on Windows");
  try {
    return await mergedSocket();
  } catch (error) {
    return separatePipes((error as Error).message);
  }
}

async function mergedSocket(): Promise<OutputWiring> {
  const hub = await listener();
  const token = randomBytes(TOKEN_BYTES).toString("hex");
  const accepted = hub.expect(token);
  const writer = createConnection(hub.path);
  try {
    await once(writer, "connect");
    writer.write(Buffer.from(token, "hex"));
    const reader = await accepted.promise;
    return {
      stdio: ["ignore", writer, writer],
      fallbackReason: null,
      attach: () => {
        writer.destroy();
        return [reader];
      },
      dispose: () => {
        writer.destroy();
        reader.destroy();
      },
    };
  } catch (error) {
    accepted.cancel();
    writer.destroy();
    throw error;
  }
}

interface Hub {
  path: string;
  expect(token: string): { promise: Promise<Socket>; cancel(): void };
}

let hubPromise: Promise<Hub> | null = null;

/** The shared listener's socket path (tests connect to it as a stray client would). */
export async function outputListenerPath(): Promise<string> {
  return (await listener()).path;
}

function listener(): Promise<Hub> {
  hubPromise ??= openHub().catch((error: unknown) => {
    hubPromise = null; // try again next time
    throw error;
  });
  return hubPromise;
}

async function openHub(): Promise<Hub> {
  // Short prefix: socket paths are limited to ~104 bytes and tmpdir can be long (macOS).
  const directory = mkdtempSync(join(tmpdir(), "loom-"));
  const path = join(directory, "o");
  const waiting = new Map<string, { resolve: (socket: Socket) => void; reject: (error: Error) => void }>();
  const server: Server = createServer((socket) => {
    readToken(socket).then(
      (token) => {
        const pending = token === null ? undefined : waiting.get(token);
        if (!pending || token === null) return socket.destroy();
        waiting.delete(token);
        pending.resolve(socket);
      },
      () => socket.destroy(),
    );
  });
  const cleanup = () => rmSync(directory, { recursive: true, force: true });
  try {
    server.listen(path);
    await once(server, "listening");
  } catch (error) {
    cleanup();
    throw error;
  }
  server.unref(); // never keeps the process alive
  process.once("exit", cleanup);
  server.on("error", () => {
    hubPromise = null;
    for (const pending of waiting.values()) pending.reject(new Error("the output listener failed"));
    waiting.clear();
  });
  return {
    path,
    expect(token) {
      let timer: NodeJS.Timeout | undefined;
      const promise = new Promise<Socket>((resolve, reject) => {
        timer = setTimeout(() => {
          waiting.delete(token);
          reject(new Error("the output channel did not connect in time"));
        }, PAIRING_LIMIT_MS);
        waiting.set(token, {
          resolve: (socket) => (clearTimeout(timer), resolve(socket)),
          reject: (error) => (clearTimeout(timer), reject(error)),
        });
      });
      return {
        promise,
        cancel: () => {
          clearTimeout(timer);
          waiting.delete(token);
        },
      };
    },
  };
}

/** The first TOKEN_BYTES of a new connection, leaving everything after them unread; null if it ends first. */
function readToken(socket: Socket): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const chunk = socket.read(TOKEN_BYTES) as Buffer | null;
      if (chunk === null) return;
      socket.off("readable", attempt);
      socket.off("end", ended);
      socket.off("error", reject);
      resolve(chunk.toString("hex"));
    };
    const ended = () => resolve(null);
    socket.on("readable", attempt);
    socket.once("end", ended);
    socket.once("error", reject);
  });
}

function separatePipes(reason: string): OutputWiring {
  return {
    stdio: ["ignore", "pipe", "pipe"],
    fallbackReason: reason,
    attach: (child) => [child.stdout, child.stderr].filter((stream): stream is Readable => stream !== null),
    dispose: () => undefined,
  };
}
