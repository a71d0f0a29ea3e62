#!/usr/bin/env node
// Entry point of the `loom` command (`npx loom …`). The CLI is TypeScript; tsx's loader runs it
// directly so the same sources serve the CLI, the server and the tests without a build step.
import { register } from "tsx/esm/api";

register();
// `loom … | head` closes stdout early: later output is dropped, but the command still runs to
// the end and exits with its real status (a failing conformance run must not exit 0). A full
// disk under its output loses lines, not the process (output-guard.ts).
const { guardOutput } = await import("../server/cli/output-guard.ts");
guardOutput();
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
