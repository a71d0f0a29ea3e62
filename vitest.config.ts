import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    environment: "node",
    pool: "forks",
    include: ["lib/**/*.test.ts", "server/**/*.test.ts", "components/**/*.test.ts", "bench/**/*.test.ts"],
    testTimeout: 60_000,
    // Nesting checks on in every test (server/store/engine/unit.ts).
    setupFiles: ["server/store/engine/vitest-setup.ts"],
  },
});
