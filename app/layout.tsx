import type { Metadata } from "next";
import type { ReactNode } from "react";
import { MeProvider } from "@/components/auth/me";
import { Nav } from "@/components/nav";
import { Providers } from "@/components/providers";
import { meOf } from "@/server/auth/principal";
import { currentPrincipal } from "./session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Loom", template: "%s · Loom" },
  description: "Loom: an Open Job Description render and compute farm",
};

/** Every page is rendered for its caller (the navigation shows who that is), so none is prerendered without its CSP nonce. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const principal = await currentPrincipal();
  return (
    <html lang="en">
      <body>
        <Providers renderedAt={Date.now()}>
          <MeProvider me={principal ? meOf(principal) : null}>
            <Nav />
            {children}
          </MeProvider>
        </Providers>
      </body>
    </html>
  );
}
