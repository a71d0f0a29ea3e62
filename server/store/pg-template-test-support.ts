/**
 * Global setup of the vitest "postgres" project: one migrated template database for the whole
 * run (engines-test-support.ts copies it for each test file's databases), dropped at the end of the run.
 */
import type { TestProject } from "vitest/node";
import { freshTestDatabase } from "../db/postgres-test-support";
import { openAsyncStore } from "./engine/open-store";

/** The environment variable naming the migrated template database of a PostgreSQL test run (pg-template-test-support.ts sets it, engines-test-support.ts reads it). */
export const TEMPLATE_VARIABLE = "LOOM_TEST_PG_TEMPLATE" as const;

declare module "vitest" {
  export interface ProvidedContext {
    LOOM_TEST_PG_TEMPLATE: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await freshTestDatabase("loom_tpl");
  // Migrated once, then closed: CREATE DATABASE … TEMPLATE needs it without connections.
  const store = await openAsyncStore(template.url, { poolSize: 1 });
  await store.close();
  process.env[TEMPLATE_VARIABLE] = template.name;
  project.provide(TEMPLATE_VARIABLE, template.name);
  return async () => {
    await template.drop();
  };
}
