// drizzle-kit: `npx drizzle-kit generate` writes a migration to drizzle/ after a schema change.
// The server applies them itself when it opens the database (server/db/connection.ts).
// PostgreSQL has its own schema and migrations: drizzle.postgres.config.ts (drizzle/postgres/).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./server/db/schema.ts",
  out: "./drizzle",
});
