#!/usr/bin/env node
// Entry point of the `loom` command (`npx loom …`). The CLI is TypeScript; tsx's loader runs it
// directly so the same sources serve the CLI, the server and the tests without a build step.
import { register } from "tsx/esm/api";

register();
// `loom … | head` closes stdout early: later output is dropped, but the command still runs to
// the end and exits with its real status (a failing conformance run must not exit 0).
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
  });
}
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
