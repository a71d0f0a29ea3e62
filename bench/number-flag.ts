import type { Engine } from "../server/store/engine/engine";

/** `--name value` flags of the bench scripts as numbers, with defaults; a value that is not a number exits 2. */
export function numberFlag(args: readonly string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value)) {
    console.error(`${name} needs a number`);
    process.exit(2);
  }
  return value;
}

/** `--engine sqlite|postgres` (sqlite when absent); anything else exits 2. */
export function engineFlag(args: readonly string[]): Engine {
  const at = args.indexOf("--engine");
  const engine = at === -1 ? "sqlite" : args[at + 1];
  if (engine !== "sqlite" && engine !== "postgres") {
    console.error("--engine is sqlite or postgres");
    process.exit(2);
  }
  return engine;
}
