/**
 * Who the end-to-end tests are: the first admin (made through the one-time setup address) and
 * the accounts that admin makes through the Users page. personas.setup.ts creates them and
 * saves each one's signed-in browser state; a spec runs as one with
 * `test.use({ storageState: statePath("ana") })`.
 */
import { join } from "node:path";
import type { Role } from "../lib/farm/access";

export const PORT = Number(process.env.LOOM_E2E_PORT ?? "3100");
export const BASE_URL = `http://127.0.0.1:${PORT}`;
/** The server's data folder for this port (playwright.config.ts starts `loom serve` on it, fresh each run). */
export const DATA_DIR = `data/e2e-${PORT}`;

/** The one-time setup token `loom serve` is started with (playwright.config.ts sets it). */
export function setupToken(): string {
  const token = process.env.LOOM_E2E_SETUP_TOKEN;
  if (!token) throw new Error("LOOM_E2E_SETUP_TOKEN is not set: run the tests with `npm run test:e2e` (playwright.config.ts sets it)");
  return token;
}

export interface Persona {
  name: string;
  role: Role;
  password: string;
}

export const PERSONAS = {
  ada: { name: "ada", role: "admin", password: "pw-e2e-admin-0001" },
  ana: { name: "ana", role: "artist", password: "pw-e2e-artist-001" },
  ben: { name: "ben", role: "artist", password: "pw-e2e-artist-002" },
  wes: { name: "wes", role: "wrangler", password: "pw-e2e-wrangler-1" },
  vic: { name: "vic", role: "viewer", password: "pw-e2e-viewer-001" },
} as const satisfies Record<string, Persona>;

export type PersonaName = keyof typeof PERSONAS;

/**
 * Where a persona's signed-in browser state (its session cookie) is kept for the run: beside the
 * data folder (gitignored), not in test-results/, which Playwright empties at the start of every
 * run (a run of one spec with --no-deps would lose them).
 */
export function statePath(name: PersonaName): string {
  return join("data", `e2e-${PORT}-personas`, `${name}.json`);
}
