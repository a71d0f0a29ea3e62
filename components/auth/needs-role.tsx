import { ROLE_DESCRIPTIONS, roleWithArticle, type Role } from "@/lib/farm/access";

/** What a page shows instead of its tools to a caller whose role is below what they need (the server refuses the data too). */
export function NeedsRole({ role, what, yours }: { role: Role; what: string; yours: Role }) {
  const needed = roleWithArticle(role);
  return (
    <section aria-labelledby="needs-role" className="needs-role">
      <h2 id="needs-role">
        {what} needs the {role} role
      </h2>
      <p>
        You are signed in as {roleWithArticle(yours)}, who {ROLE_DESCRIPTIONS[yours]}. {needed[0]!.toUpperCase()}
        {needed.slice(1)} {ROLE_DESCRIPTIONS[role]}. An admin of this farm can change your role on the Users page.
      </p>
    </section>
  );
}
