import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The farm server is self-contained: no telemetry, no remote fonts or images.
  poweredByHeader: false,
  // Native module: loaded by Node at run time, never bundled.
  serverExternalPackages: ["better-sqlite3"],
};

export default nextConfig;
