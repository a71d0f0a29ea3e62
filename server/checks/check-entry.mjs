// The entry of a check thread (server/checks/check-pool.ts). lib/openjd is TypeScript: tsx's
// loader runs it here as bin/loom.mjs does for the CLI, whether the server runs from the sources
// or inside the Next.js bundle.
import { register } from "tsx/esm/api";

register();
await import("./check-thread.ts");
