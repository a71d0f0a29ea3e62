"use client";

import { useState } from "react";
import { useMe } from "../auth/me";
import { CreateToken } from "./create-token";
import { NewToken } from "./new-token";
import { TokensTable } from "./tokens-table";
import "../admin/admin.css";

/** The account page's tokens: create (the token shown once), list, revoke. */
export function AccountTokens() {
  const me = useMe();
  // The one place a new token lives, until the panel is closed.
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  if (!me) return null;
  return (
    <>
      {shown ? <NewToken {...shown} onClose={() => setShown(null)} /> : <CreateToken role={me.role} onToken={setShown} />}
      <TokensTable />
    </>
  );
}
