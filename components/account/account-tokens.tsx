"use client";

import { useState } from "react";
import { useMe } from "../auth/me";
import { ShownOnceToken } from "../ui/shown-once-token";
import { CreateToken, TOKEN_NAME_FIELD } from "./create-token";
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
      {shown ? (
        <ShownOnceToken
          title={`New token ${shown.name}`}
          fieldLabel={`Token ${shown.name}`}
          token={shown.token}
          ifLost="revoke it and make another"
          returnFocusTo={TOKEN_NAME_FIELD}
          onClose={() => setShown(null)}
        >
          <p className="muted">
            Scripts send it as <code>Authorization: Bearer &lt;token&gt;</code>; the <code>loom</code> command reads it from <code>LOOM_TOKEN</code> (or run{" "}
            <code>loom login --server {window.location.origin}</code>, which makes and stores a token for you).
          </p>
        </ShownOnceToken>
      ) : (
        <CreateToken role={me.role} onToken={setShown} />
      )}
      <TokensTable />
    </>
  );
}
