// drizzle-kit: `npx drizzle-kit generate` writes a migration to drizzle/ after a schema change.
// The server applies them itself when it opens the database (server/db/connection.ts).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./server/db/schema.ts",
  out: "./drizzle",
});
