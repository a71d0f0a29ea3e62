/**
 * The server side of persist-job.test.ts's crash: a process that submits a small job (answered),
 * then starts a 1,000,000-task one and is killed by the test while that one is being written.
 */
import { productTemplate } from "../checks/check-test-support";
import { openStore } from "../db/connection";
import { createFarm } from "../context/farm";
import { submitToFarm } from "./submit-job";

const store = openStore(process.argv[2]!);
const farm = createFarm(store);
const submission = (text: string) => ({ template: { text, format: "yaml" as const }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: Date.now() });
const small = await submitToFarm(farm, submission(productTemplate(2, 3)));
process.stdout.write(`${JSON.stringify(small)}\n`);
void submitToFarm(farm, submission(productTemplate(1000, 1000)));
