import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Two runs: every test on SQLite, and the farm's suites (services, scheduler, store, the worker
 * API and the farm integration and fault suites) again on PostgreSQL. Their names say which:
 * `|sqlite|` and `|postgres|`. Tests get their store from server/store/engines-test-support.ts, which reads
 * LOOM_TEST_ENGINE.
 */
const everything = ["lib/**/*.test.ts", "server/**/*.test.ts", "components/**/*.test.ts", "bench/**/*.test.ts"];
const onBothEngines = [
  "server/services/**/*.test.ts",
  "server/scheduler/**/*.test.ts",
  "server/farm-tests/**/*.test.ts",
  "server/store/**/*.test.ts",
  "server/api/**/*.test.ts",
  "server/queries/**/*.test.ts",
];

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    environment: "node",
    pool: "forks",
    testTimeout: 60_000,
    // Nesting checks on in every test (server/store/engine/unit.ts).
    setupFiles: ["server/store/engine/vitest-setup.ts"],
    projects: [
      { extends: true, test: { name: "sqlite", include: everything, env: { LOOM_TEST_ENGINE: "sqlite" } } },
      {
        extends: true,
        test: { name: "postgres", include: onBothEngines, env: { LOOM_TEST_ENGINE: "postgres" }, globalSetup: ["server/store/pg-template-test-support.ts"] },
      },
    ],
  },
});
