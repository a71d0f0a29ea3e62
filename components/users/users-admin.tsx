"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ROLE_LABELS } from "@/lib/farm/access";
import { formatTimestamp } from "@/lib/farm/display";
import { Ago } from "../admin/ago";
import { useMe } from "../auth/me";
import { useTRPC } from "../trpc";
import { DataTable } from "../ui/data-table";
import { NoticeLine, type Notice } from "../ui/notice";
import { CreateUser } from "./create-user";
import { UserActions } from "./user-actions";
import "../admin/admin.css";

/** The users page (admins): create an account, and each account's role, state and password. */
export function UsersAdmin() {
  const trpc = useTRPC();
  const me = useMe();
  const list = useQuery(trpc.users.list.queryOptions());
  const [notice, setNotice] = useState<Notice | null>(null);
  const onError = (message: string | null) => setNotice(message === null ? null : { tone: "bad", text: message });
  const onDone = (text: string) => setNotice({ tone: "good", text });
  const users = list.data ?? [];

  return (
    <>
      <CreateUser onCreated={(name) => onDone(`Created ${name}.`)} />
      <NoticeLine notice={notice} />
      {list.error && (
        <p role="alert" className="error-text">
          Could not load the users: {list.error.message}
        </p>
      )}
      <DataTable label="Users" columns={["User", "Role", "State", "Created", "Last active", "Actions"]}>
        {users.map((user) => (
          <tr key={user.id}>
            <th scope="row">
              {user.name}
              {user.kind === "service" && <div className="muted">service account (tokens only)</div>}
              {user.id === me?.userId && <div className="muted">you</div>}
            </th>
            <td>{ROLE_LABELS[user.role]}</td>
            <td>
              <span className={`badge tone-${user.disabled ? "off" : "good"}`}>{user.disabled ? "Disabled" : "Enabled"}</span>
            </td>
            <td>{formatTimestamp(user.createdAt)}</td>
            <td>
              <Ago at={user.lastActiveAt} />
            </td>
            <td>
              <UserActions user={user} isSelf={user.id === me?.userId} onError={onError} onDone={onDone} />
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
