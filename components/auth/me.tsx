"use client";

/**
 * Who is signed in, for the portal's client components: read once per page load on the server
 * (app/layout.tsx) and handed down, so a control can be left out when the server would refuse
 * it. Hiding is a courtesy: every call is decided again on the server.
 */
import { createContext, useContext, type ReactNode } from "react";
import { decide, type Rule } from "@/lib/farm/access";
import type { Me } from "@/server/auth/principal";

const MeContext = createContext<Me | null>(null);

export function MeProvider({ me, children }: { me: Me | null; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

/** The signed-in caller, or null (the sign-in and setup pages). */
export function useMe(): Me | null {
  return useContext(MeContext);
}

/** Whether the signed-in caller passes a role rule (RULES.submit, RULES.admin…): what the server would decide. */
export function useAllows(rule: Extract<Rule, { kind: "role" | "signedIn" }>): boolean {
  return decide(useMe(), rule).ok;
}
