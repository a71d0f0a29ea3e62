/**
 * The server side of persist-job.test.ts's crash: a process that submits a small job (answered),
 * then starts a 1,000,000-task one and is killed by the test while that one is being written.
 * Its store is the test's database target: a SQLite file, or a PostgreSQL database.
 */
import { productTemplate } from "../checks/check-test-support";
import { createFarm } from "../context/farm";
import { openAsyncStore } from "../store/engine/open-store";
import { submitToFarm } from "./submit-job";

const store = await openAsyncStore(process.argv[2]!);
const farm = createFarm(store);
const submission = (text: string) => ({ template: { text, format: "yaml" as const }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: Date.now() });
const small = await submitToFarm(farm, submission(productTemplate(2, 3)));
process.stdout.write(`${JSON.stringify(small)}\n`);
void submitToFarm(farm, submission(productTemplate(1000, 1000)));
