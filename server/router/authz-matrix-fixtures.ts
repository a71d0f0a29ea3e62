/**
 * The authorization matrix's data (authz-matrix.test.ts): who may call each procedure, written by
 * hand from the role table of design/access-control.md (never read from the rules the router
 * declares: a test that derived its expectations from the rules could not fail), the farm every
 * cell starts from, and a valid input per procedure.
 *
 * A new procedure needs a row in EXPECTED and an entry in FIXTURES, or the matrix test fails.
 */
import { crc32 } from "node:zlib";
import type { Role } from "../../lib/farm/access";
import { issueToken } from "../auth/access-tokens";
import { createUser } from "../auth/accounts";
import { openSetup } from "../auth/first-start";
import type { Principal } from "../auth/principal";
import { testPrincipal } from "../auth/test-principals";
import { SYSTEM_ACTOR } from "../services/audit";
import type { Farm } from "../context/farm";
import { LINUX_WORKER, SimulatedWorker, testFarm, type TestFarm } from "../services/farm-test-support";
import { ingestLogs } from "../services/ingest-logs";
import { submitJob } from "../services/submit-job";
import { saveTemplate } from "../services/templates";
import { testSupportRepository } from "../store/store-test-support";

export const CALLERS = ["anonymous", "viewer", "artist", "otherArtist", "wrangler", "admin"] as const;
export type CallerKey = (typeof CALLERS)[number];
export type Person = Exclude<CallerKey, "anonymous">;
export type Verdict = "allow" | "refuse";

const ROLE_OF: Record<Person, Role> = { viewer: "viewer", artist: "artist", otherArtist: "artist", wrangler: "wrangler", admin: "admin" };

/** One row of the matrix, in CALLERS order: "yes" (allowed) or "no" (refused). */
function row(spec: string): Record<CallerKey, Verdict> {
  const cells = spec.trim().split(/\s+/);
  if (cells.length !== CALLERS.length || cells.some((c) => c !== "yes" && c !== "no")) throw new Error(`a matrix row has ${CALLERS.length} cells of yes/no: '${spec}'`);
  return Object.fromEntries(CALLERS.map((caller, i) => [caller, cells[i] === "yes" ? "allow" : "refuse"])) as Record<CallerKey, Verdict>;
}

// The design page's table as rows. anonymous: only signing in and the first-start setup.
// viewer: reads jobs, steps, tasks, logs, pools, workers (and the template library, the overview
// built from them). artist: + submit, + act on their own jobs and templates. wrangler: + every job
// and template. admin: + pools, tokens of others, workers, users, the audit log.
//                     anonymous viewer artist otherArtist wrangler admin
const ANYONE = row("   yes      yes    yes    yes         yes      yes");
const SIGNED_IN = row("no       yes    yes    yes         yes      yes");
const READERS = row("  no       yes    yes    yes         yes      yes");
const SUBMITTERS = row("no      no     yes    yes         yes      yes");
const OWNER = row("    no       no     yes    no          yes      yes");
const WRANGLERS = row("no       no     no     no          yes      yes");
const ADMINS = row("   no       no     no     no          no       yes");

/** The expected verdict of every procedure for every caller. */
export const EXPECTED: Record<string, Record<CallerKey, Verdict>> = {
  "auth.me": ANYONE,
  "auth.signIn": ANYONE,
  "auth.signOut": SIGNED_IN,
  "auth.setupStatus": ANYONE,
  "auth.setup": ANYONE,
  "auth.tokenFromPassword": ANYONE,

  "tokens.list": SIGNED_IN,
  "tokens.create": SIGNED_IN,
  "tokens.revoke": SIGNED_IN,
  "tokens.listAll": ADMINS,
  "tokens.revokeAny": ADMINS,

  "users.list": ADMINS,
  "users.create": ADMINS,
  "users.setRole": ADMINS,
  "users.setDisabled": ADMINS,
  "users.setPassword": ADMINS,

  "audit.list": ADMINS,

  "jobs.list": READERS,
  "jobs.submitters": READERS,
  "jobs.get": READERS,
  "jobs.tasks": READERS,
  "jobs.sessions": READERS,
  "jobs.whyWaiting": READERS,
  "jobs.taskDependencies": READERS,
  "jobs.requeueDependents": READERS,
  "jobs.workerFailures": READERS,
  "jobs.onChange": READERS,
  "jobs.preview": SUBMITTERS,
  "jobs.submit": SUBMITTERS,
  "jobs.cancel": OWNER,
  "jobs.suspend": OWNER,
  "jobs.resume": OWNER,
  "jobs.requeue": OWNER,
  "jobs.retryFailed": OWNER,
  "jobs.setPriority": OWNER,
  "jobs.clearWorkerFailures": WRANGLERS,

  "logs.session": READERS,
  "logs.lines": READERS,
  "logs.follow": READERS,
  "logs.followBatches": READERS,

  "overview.get": READERS,
  "overview.onChange": READERS,

  "pools.list": READERS,
  "pools.onChange": READERS,
  "pools.create": ADMINS,
  "pools.rotateToken": ADMINS,
  "pools.drain": ADMINS,
  "pools.setEnabled": ADMINS,

  "workers.list": READERS,
  "workers.onChange": READERS,
  "workers.timeline": READERS,
  "workers.drain": ADMINS,
  "workers.undrain": ADMINS,
  "workers.setDisabled": ADMINS,
  "workers.remove": ADMINS,

  "templates.list": READERS,
  "templates.get": READERS,
  "templates.importBundle": SUBMITTERS,
  "templates.readBundle": SUBMITTERS,
  "templates.save": OWNER,
  "templates.delete": OWNER,

  "retention.preview": ADMINS,
  "retention.purge": ADMINS,
};

export const JOB_TEMPLATE = `specificationVersion: jobtemplate-2023-09
name: matrix
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-3"}
  script:
    actions:
      onRun: {command: echo, args: ["{{Task.Param.Frame}}"]}
`;

/** A farm as every cell starts it: five people, the artist's job (running on a worker, with a log line) and template, a token each. */
export interface Seed {
  t: TestFarm;
  farm: Farm;
  people: Record<Person, Principal>;
  jobId: string;
  stepId: string;
  sessionId: string;
  workerId: string;
  poolId: string;
  templateId: string;
  templateName: string;
  /** The seeded template's version (templates.save replaces it only when told which version it saw). */
  templateUpdatedAt: number;
  /** A token of each person (tokens.revoke revokes the caller's own). */
  tokenIds: Record<Person, string>;
}

export async function seedFarm(): Promise<Seed> {
  const t = await testFarm();
  const farm = t.farm;
  const people = {} as Record<Person, Principal>;
  for (const p of Object.keys(ROLE_OF) as Person[]) people[p] = await testPrincipal(farm, ROLE_OF[p], `mx-${p.toLowerCase()}`);
  const artist = people.artist;
  const actor = { ...SYSTEM_ACTOR, kind: "user" as const, id: artist.userId, name: artist.name, via: "session" };
  const submitted = await submitJob(farm.store, {
    template: { text: JOB_TEMPLATE, format: "yaml" },
    parameterValues: {},
    templateDir: null,
    workingDir: "/tmp",
    now: t.clock.now,
    owner: { userId: artist.userId, name: artist.name, actor },
  });
  if (!submitted.ok) throw new Error(`seed job refused: ${JSON.stringify(submitted.errors)}`);
  const stepId = (await farm.store.read((tx) => testSupportRepository.stepOfJob(tx, submitted.jobId)))!;
  const worker = await SimulatedWorker.create(t, LINUX_WORKER("mx-worker"), () => "hold");
  const sessionId = (await worker.sync()).assignments[0]?.sessionId;
  if (!sessionId) throw new Error("the seed worker got no Session");
  await ingestLogs(farm, await worker.identity, { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessionId, lines: [{ seq: 0, actionId: null, time: t.clock.now, line: "seed line" }] });
  const template = await saveTemplate(farm, { name: "artist's template", text: JOB_TEMPLATE, format: "yaml" }, { caller: artist, actor });
  const tokenIds = {} as Record<Person, string>;
  for (const p of Object.keys(people) as Person[]) {
    const person = people[p];
    const issued = await farm.store.transaction((tx) => issueToken(tx, farm, SYSTEM_ACTOR, { userId: person.userId, role: person.role, name: `${p} token`, scope: "read", expiresInDays: 30 }));
    tokenIds[p] = issued.view.id;
  }
  return {
    t,
    farm,
    people,
    jobId: submitted.jobId,
    stepId,
    sessionId,
    workerId: worker.workerId,
    poolId: t.pool.id,
    templateId: template.id,
    templateName: template.name,
    templateUpdatedAt: template.updatedAt,
    tokenIds,
  };
}

/** A valid input for a procedure (or a promise of one, when it is read from the farm), and what the farm needs before it (beyond the seed). */
export interface Fixture {
  input(seed: Seed, caller: CallerKey): unknown;
  prepare?(seed: Seed): Promise<void> | void;
}

const fixed = (value: unknown): Fixture => ({ input: () => value });
const given = (input: (seed: Seed, caller: CallerKey) => unknown): Fixture => ({ input });

/** Someone whose password is known, for the procedures that take one. */
export const SIGN_IN = { name: "mx-signin", password: "correct horse battery" };
const withSignInAccount = async (seed: Seed) => void (await createUser(seed.farm, SYSTEM_ACTOR, { name: SIGN_IN.name, role: "artist", password: SIGN_IN.password }));

const SETUP_TOKEN = "loom_setup_matrix-test-token";

/** A one-file stored zip (a job bundle of just its template). */
export function bundleZip(fileName: string, text: string): Buffer {
  const name = Buffer.from(fileName);
  const data = Buffer.from(text);
  const header = (signature: number, size: number) => {
    const b = Buffer.alloc(size);
    b.writeUInt32LE(signature, 0);
    return b;
  };
  const local = header(0x04034b50, 30);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(data), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = header(0x02014b50, 46);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc32(data), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const end = header(0x06054b50, 22);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

const submission = { template: { text: JOB_TEMPLATE, format: "yaml" }, parameterValues: {} };
const wholeJob = given((s) => ({ jobId: s.jobId }));

export const FIXTURES: Record<string, Fixture> = {
  "auth.me": fixed(undefined),
  "auth.signIn": { input: () => SIGN_IN, prepare: withSignInAccount },
  "auth.signOut": fixed(undefined),
  "auth.setupStatus": fixed({ token: "loom_setup_not-this-one" }),
  // The setup exists only while no person has an account: the callers of this cell are then
  // service accounts (the kind `local-admin` is), and the setup address is open.
  "auth.setup": {
    input: () => ({ token: SETUP_TOKEN, name: "first-admin", password: "a long first password" }),
    prepare: async (s) => {
      await s.farm.store.transaction((tx) => testSupportRepository.makeEveryoneAService(tx));
      await openSetup(s.farm, SETUP_TOKEN);
    },
  },
  "auth.tokenFromPassword": { input: () => ({ ...SIGN_IN, tokenName: "laptop", scope: "read" }), prepare: withSignInAccount },

  "tokens.list": fixed(undefined),
  "tokens.create": fixed({ name: "script", scope: "read", expiresInDays: 30 }),
  "tokens.revoke": given((s, caller) => ({ tokenId: s.tokenIds[caller === "anonymous" ? "artist" : caller] })),
  "tokens.listAll": fixed(undefined),
  "tokens.revokeAny": given((s) => ({ tokenId: s.tokenIds.artist })),

  "users.list": fixed(undefined),
  "users.create": fixed({ name: "newcomer", role: "viewer", password: "a long enough password" }),
  "users.setRole": given((s) => ({ name: s.people.otherArtist.name, role: "viewer" })),
  "users.setDisabled": given((s) => ({ name: s.people.otherArtist.name, disabled: true })),
  "users.setPassword": given((s) => ({ name: s.people.otherArtist.name, password: "another long password" })),

  "audit.list": fixed({}),

  "jobs.list": fixed({}),
  "jobs.submitters": fixed(undefined),
  "jobs.get": wholeJob,
  "jobs.tasks": given((s) => ({ stepId: s.stepId })),
  "jobs.sessions": wholeJob,
  "jobs.whyWaiting": given(async (s) => ({ taskId: (await s.farm.store.read((tx) => testSupportRepository.lastTaskOfStep(tx, s.stepId)))! })),
  "jobs.taskDependencies": given(async (s) => ({ taskId: (await s.farm.store.read((tx) => testSupportRepository.lastTaskOfStep(tx, s.stepId)))! })),
  "jobs.requeueDependents": wholeJob,
  "jobs.workerFailures": wholeJob,
  "jobs.onChange": wholeJob,
  "jobs.preview": fixed(submission),
  "jobs.submit": fixed(submission),
  "jobs.cancel": wholeJob,
  "jobs.suspend": wholeJob,
  "jobs.resume": wholeJob,
  "jobs.requeue": wholeJob,
  "jobs.retryFailed": wholeJob,
  "jobs.setPriority": given((s) => ({ jobId: s.jobId, priority: 60 })),
  "jobs.clearWorkerFailures": {
    input: (s) => ({ jobId: s.jobId, workerId: s.workerId }),
    // The seed's worker kept away from the artist's job, as after its failures.
    prepare: (s) => s.farm.store.transaction((tx) => testSupportRepository.blockWorkerForJob(tx, s.jobId, s.workerId, s.t.clock.now)),
  },

  "logs.session": given((s) => ({ sessionId: s.sessionId })),
  "logs.lines": given((s) => ({ sessionId: s.sessionId })),
  "logs.follow": given((s) => ({ sessionId: s.sessionId })),
  "logs.followBatches": given((s) => ({ sessionId: s.sessionId })),

  "overview.get": fixed(undefined),
  "overview.onChange": fixed(undefined),

  "pools.list": fixed(undefined),
  "pools.onChange": fixed(undefined),
  "pools.create": fixed({ name: "matrix-pool" }),
  "pools.rotateToken": given((s) => ({ poolId: s.poolId })),
  "pools.drain": given((s) => ({ poolId: s.poolId, mode: "AFTER_TASK" })),
  "pools.setEnabled": given((s) => ({ poolId: s.poolId, enabled: false })),

  "workers.list": fixed({}),
  "workers.onChange": fixed({}),
  "workers.timeline": given((s) => ({ from: s.t.clock.now - 3_600_000, to: s.t.clock.now + 60_000 })),
  "workers.drain": given((s) => ({ workerId: s.workerId, mode: "NOW" })),
  "workers.undrain": given((s) => ({ workerId: s.workerId })),
  "workers.setDisabled": given((s) => ({ workerId: s.workerId, disabled: true })),
  "workers.remove": given((s) => ({ workerId: s.workerId })),

  "templates.list": fixed(undefined),
  "templates.get": given((s) => ({ id: s.templateId })),
  "templates.importBundle": fixed({ fileName: "shot.zip", base64: bundleZip("template.yaml", JOB_TEMPLATE.replace("name: matrix", "name: imported")).toString("base64") }),
  // Replacing the artist's entry: the owner and wranglers may, another artist may not (keeping both is anyone's: templates.test.ts).
  "templates.readBundle": fixed({ folderName: "shot", files: { "template.yaml": JOB_TEMPLATE, "parameter_values.yaml": "parameterValues: []\n" } }),
  "templates.save": given((s) => ({ name: s.templateName, text: JOB_TEMPLATE, format: "yaml", replace: { id: s.templateId, updatedAt: s.templateUpdatedAt } })),
  "templates.delete": given((s) => ({ id: s.templateId })),

  "retention.preview": fixed({}),
  "retention.purge": fixed({ olderThanDays: 30, mode: "delete" }),
};
