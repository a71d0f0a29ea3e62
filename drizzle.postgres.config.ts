// drizzle-kit for PostgreSQL: `npx drizzle-kit generate --config drizzle.postgres.config.ts`
// writes a migration to drizzle/postgres/ after a change to server/db/schema-postgres.ts (make
// the same change to schema.ts and generate its SQLite migration too: schema-parity.test.ts;
// schema-snapshots.test.ts fails while a schema differs from its last migration's snapshot).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema-postgres.ts",
  out: "./drizzle/postgres",
});
