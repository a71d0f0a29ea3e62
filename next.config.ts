import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The farm server is self-contained: no telemetry, no remote fonts or images.
  poweredByHeader: false,
  // LOOM_NEXT_DIST_DIR (server/env.ts): a build folder of one's own, for parallel builds and e2e runs.
  distDir: process.env.LOOM_NEXT_DIST_DIR ?? ".next",
  // Native module: loaded by Node at run time, never bundled.
  serverExternalPackages: ["better-sqlite3"],
};

export default nextConfig;
