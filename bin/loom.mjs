#!/usr/bin/env node
// Entry point of the `loom` command (`npx loom …`). The CLI is TypeScript; tsx's loader runs it
// directly so the same sources serve the CLI, the server and the tests without a build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
