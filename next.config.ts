import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The farm server is self-contained: no telemetry, no remote fonts or images.
  poweredByHeader: false,
};

export default nextConfig;
