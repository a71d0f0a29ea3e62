/**
 * The task shield (task-shield.ts) against real processes: what a task can see and do inside
 * it, and that it passes the task's program, arguments and environment exactly. Skipped, with
 * the reason in the test names, on a host where user namespaces do not work.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventually, TEST_PATH } from "../session/session-test-support";
import { startProcess, type ProcessSpec } from "../session/subprocess";
import { chooseShield } from "./shield-mode";
import { dataFolder, processesWithArgument, SECRETS, shieldFor, shieldProblem, skipNotice, type DataFolder } from "./shield-test-support";
import type { TaskShield } from "./task-shield";

const problem = await shieldProblem();
const notice = skipNotice(problem);

/** Runs `command args` in a Session-like directory of the folder's Session root, shielded or not. */
async function run(folder: DataFolder, shield: TaskShield | null, command: string, args: string[], overrides: Partial<ProcessSpec> = {}) {
  const cwd = join(folder.sessionRoot, "session-1");
  mkdirSync(cwd, { recursive: true });
  const lines: string[] = [];
  const running = startProcess({
    command,
    args,
    cwd,
    env: { PATH: TEST_PATH },
    timeoutSeconds: 20,
    cancelation: { mode: "TERMINATE", notifyPeriodSeconds: 0 },
    workingDirectory: cwd,
    onLine: (line) => void lines.push(line),
    ...(shield ? { launcher: shield.launcher } : {}),
    ...overrides,
  });
  return { running, lines, result: await running.result, cwd };
}

const sh = (folder: DataFolder, shield: TaskShield | null, script: string, overrides: Partial<ProcessSpec> = {}) => run(folder, shield, "/bin/sh", ["-c", script], overrides);

describe.skipIf(problem !== null)(`inside the task shield${notice}`, () => {
  it("the task is the worker's own user, and /proc shows only its own namespace", async () => {
    const folder = dataFolder();
    const { result, lines } = await sh(
      folder,
      shieldFor(folder),
      `id -u; id -g; ls /proc | grep -c '^[0-9]'; cat /proc/${process.pid}/environ || echo no-worker-environ; [ -e /dev/fd/3 ] || echo no-fstab-fd`,
    );
    expect(result).toMatchObject({ outcome: "succeeded", exitCode: 0 });
    expect(lines[0]).toBe(String(process.getuid!()));
    expect(lines[1]).toBe(String(process.getgid!()));
    // PID 1 (the shield's sh), the command's sh and ls, grep: nothing from outside.
    expect(Number(lines[2])).toBeLessThanOrEqual(5);
    expect(lines.slice(-2)).toEqual(["no-worker-environ", "no-fstab-fd"]);
    // The fstab was a file without a name: nothing is left in the Session root.
    expect(readdirSync(folder.sessionRoot)).toEqual(["session-1"]);
  });

  it("hides the data folder but the working directory, and the login folder; the working directory stays usable", async () => {
    const folder = dataFolder();
    mkdirSync(join(folder.sessionRoot, "another-session"));
    const script = [
      `cat '${folder.poolToken}' '${folder.adminToken}' '${folder.database}' '${folder.database}-wal' 2>&1 | sed 's/^cat: //'`,
      `echo "data: $(ls -A '${folder.data}')"`,
      `echo "sessions: $(ls -A '${folder.data}/sessions')"`,
      `echo "this worker's: $(ls -A '${folder.sessionRoot}')"`,
      `echo "login folder: $(ls -A '${folder.configDir}' | wc -l) entries"`,
      'echo mine > own-file && cat own-file && cat "$OPENJD_SESSION_WORKING_DIR/own-file"',
      "printf '#!/bin/sh\\necho runnable\\n' > tool && chmod +x tool && ./tool",
    ].join("\n");
    const { result, lines, cwd } = await sh(folder, shieldFor(folder), script, { env: { PATH: TEST_PATH, OPENJD_SESSION_WORKING_DIR: join(folder.sessionRoot, "session-1") } });
    expect(result.outcome).toBe("succeeded");
    expect(lines).toEqual([
      ...[folder.poolToken, folder.adminToken, folder.database, `${folder.database}-wal`].map((p) => `${p}: No such file or directory`),
      "data: sessions",
      "sessions: w1",
      "this worker's: session-1",
      "login folder: 0 entries",
      "mine",
      "mine",
      "runnable",
    ]);
    expect(readFileSync(join(cwd, "own-file"), "utf8")).toBe("mine\n");
    // Unshielded, the same task reads all of it: the test could fail.
    const bare = await sh(folder, null, `cat '${folder.poolToken}' '${folder.database}'`);
    expect(bare.lines.join("\n")).toContain(SECRETS.pool);
  });

  it("a file replaced by rename while the task runs, and one that appears, stay hidden (a token rotation, a database restart)", async () => {
    const folder = dataFolder();
    const cwd = join(folder.sessionRoot, "session-1");
    mkdirSync(cwd);
    const lines: string[] = [];
    const script = `echo ready; while [ ! -e go ]; do sleep 0.05; done; cat '${folder.poolToken}' '${folder.database}-shm' 2>&1 | sed 's/^cat: //'; echo done`;
    const running = startProcess({
      command: "/bin/sh",
      args: ["-c", script],
      cwd,
      env: { PATH: TEST_PATH },
      timeoutSeconds: 20,
      cancelation: { mode: "TERMINATE", notifyPeriodSeconds: 0 },
      workingDirectory: cwd,
      onLine: (line) => void lines.push(line),
      launcher: shieldFor(folder).launcher,
    });
    expect(await eventually(() => lines.includes("ready"), 10_000)).toBe(true);
    writeFileSync(`${folder.poolToken}.new`, "loom_enr_rotated-secret");
    renameSync(`${folder.poolToken}.new`, folder.poolToken);
    writeFileSync(`${folder.database}-shm`, "fresh database pages");
    writeFileSync(join(cwd, "go"), "");
    expect(await running.result).toMatchObject({ outcome: "succeeded" });
    expect(lines).toEqual(["ready", `${folder.poolToken}: No such file or directory`, `${folder.database}-shm: No such file or directory`, "done"]);
  });

  it("the task cannot unmount a mask, not even from a user namespace of its own", async () => {
    const folder = dataFolder();
    const file = join(folder.configDir, "..", "outside.token");
    writeFileSync(file, SECRETS.pool);
    const script = `umount '${file}' 2>/dev/null; echo "umount $?"; umount -l '${file}' 2>/dev/null; echo "lazy $?"; unshare -Urm sh -c "umount '${file}' 2>/dev/null; echo nested \\$?; cat '${file}'"; cat '${file}'; echo end`;
    const { lines } = await sh(folder, shieldFor(folder, { hidden: [file, folder.data] }), script);
    expect(lines).toEqual([expect.stringMatching(/^umount [1-9]\d*$/), expect.stringMatching(/^lazy [1-9]\d*$/), expect.stringMatching(/^nested [1-9]\d*$/), "end"]);
  });

  it("the task cannot look into the shield's PID 1, which holds the capabilities over the masks", async () => {
    const folder = dataFolder();
    const { lines } = await sh(
      folder,
      shieldFor(folder),
      "cat /proc/1/environ >/dev/null 2>&1 || echo no-environ; ls /proc/1/root/ >/dev/null 2>&1 || echo no-root; grep -q . /proc/1/mem 2>/dev/null || echo no-mem",
    );
    expect(lines).toEqual(["no-environ", "no-root", "no-mem"]);
  });

  it("masks paths with spaces, newlines, backslashes and # (escaped for fstab)", async () => {
    const folder = dataFolder();
    const names = ["with space", "new\nline", "back\\slash", "#hash", "tab\tbed"];
    const odd = join(folder.sessionRoot, "..", "..", "..", "odd");
    mkdirSync(odd);
    for (const name of names) writeFileSync(join(odd, name), `secret of ${JSON.stringify(name)}`);
    mkdirSync(join(odd, "dir with space"));
    writeFileSync(join(odd, "dir with space", "inside"), "secret inside");
    const hidden = [...names, "dir with space"].map((name) => join(odd, name));
    const shield = shieldFor(folder, { hidden });
    const { result, lines } = await run(folder, shield, "python3", [
      "-c",
      "import sys\nfor p in sys.argv[1:]:\n    try: print(repr(open(p).read()))\n    except IsADirectoryError: import os; print(os.listdir(p))",
      ...hidden,
    ]);
    expect(result.outcome).toBe("succeeded");
    expect(lines).toEqual([...names.map(() => "''"), "[]"]);
  });

  it("passes the task's environment exactly, whatever the names and values hold", async () => {
    const folder = dataFolder();
    const env = { PATH: TEST_PATH, QUOTES: `a b $X "q" 'r' \\z`, EMPTY: "", LINES: "one\ntwo", 'ODD$NAME"x': "v", SPLIT: "${PATH} -i --", "x.y-z": "dots" };
    const shielded = await run(folder, shieldFor(folder), "env", ["-0"], { env });
    const bare = await run(folder, null, "env", ["-0"], { env });
    expect(shielded.result.outcome).toBe("succeeded");
    expect(shielded.lines).toEqual(bare.lines);
    expect(
      shielded.lines
        .join("\n")
        .split("\0")
        .filter((v) => v !== "")
        .sort(),
    ).toEqual(
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .sort(),
    );
  });

  it("variables the task sets never reach the privileged steps: LD_PRELOAD loads into the command alone", async () => {
    const folder = dataFolder();
    const env = { PATH: TEST_PATH, LD_PRELOAD: "/nonexistent/loom-preload-probe.so" };
    const preloadErrors = (lines: string[]) => lines.filter((l) => l.includes("loom-preload-probe.so")).length;
    const bare = await run(folder, null, "/bin/true", [], { env });
    const shielded = await run(folder, shieldFor(folder), "/bin/true", [], { env });
    // The dynamic loader complains once per program it starts with the variable set.
    expect(preloadErrors(bare.lines)).toBe(1);
    expect(preloadErrors(shielded.lines)).toBe(1);
    expect(shielded.result).toMatchObject({ outcome: "succeeded", exitCode: 0 });
  });

  it("the values of the task's variables never appear on a command line other users can read", async () => {
    const folder = dataFolder();
    const value = `secret-value-${process.pid}-${Date.now()}`;
    const marker = `shield-marker-${process.pid}-${Date.now()}`;
    const lines: string[] = [];
    const cwd = join(folder.sessionRoot, "s");
    mkdirSync(cwd);
    const running = startProcess({
      command: "/bin/sh",
      args: ["-c", `echo started; sleep 30; : ${marker}`],
      cwd,
      env: { PATH: TEST_PATH, JOB_SECRET: value },
      timeoutSeconds: 20,
      cancelation: { mode: "TERMINATE", notifyPeriodSeconds: 0 },
      workingDirectory: cwd,
      onLine: (line) => void lines.push(line),
      launcher: shieldFor(folder).launcher,
    });
    while (!lines.includes("started")) await new Promise((r) => setTimeout(r, 20));
    const chain = processesWithArgument(marker);
    const cmdlines = chain.map((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8"));
    const environs = chain.map((pid) => readFileSync(`/proc/${pid}/environ`, "utf8"));
    running.cancel();
    await running.result;
    expect(chain.length).toBeGreaterThanOrEqual(2); // the shield's unshare and sh, and the command
    expect(cmdlines.filter((c) => c.includes(value))).toEqual([]);
    expect(environs.some((e) => e.split("\0").includes(`JOB_SECRET=${value}`))).toBe(true);
  });

  it("refuses a program whose path holds '=' (env would take it for a variable)", async () => {
    const folder = dataFolder();
    const dir = join(folder.sessionRoot, "session-1", "a=b");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "tool"), "#!/bin/sh\necho ran\n");
    chmodSync(join(dir, "tool"), 0o755);
    const { result, lines } = await run(folder, shieldFor(folder), join(dir, "tool"), []);
    expect(result).toMatchObject({ outcome: "failed", pid: null });
    expect(result.startError).toMatch(/task shield cannot run a program whose path holds '='/);
    expect(lines).toEqual([]);
  });
});

describe("choosing the shield (--shield auto|on|off)", () => {
  /** A host whose unshare fails the way it does where user namespaces are disabled. */
  function brokenHost(): string {
    const bin = realpathSync(mkdtempSync(join(tmpdir(), "loom-shield-broken-")));
    writeFileSync(join(bin, "unshare"), "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n", { mode: 0o755 });
    return bin;
  }

  it("auto where it does not work: one warning line naming what tasks can then read; on: refused; off: silent", async () => {
    const bin = brokenHost();
    try {
      const options = { hidden: [], sessionRoot: bin, searchPath: bin };
      const auto = await chooseShield("auto", options);
      expect(auto).toEqual({
        shield: null,
        warning: expect.stringMatching(
          /^warning: running tasks without the task shield \(unshare: unshare failed: Operation not permitted\): tasks can read every file this OS user can \(token files, the farm database\); on a shared host, run the worker as an OS user of its own and its tasks as another \(README, 'Shared hosts'\)$/,
        ),
      });
      expect(await chooseShield("on", options)).toEqual({ refused: "--shield on: the task shield does not work here: unshare: unshare failed: Operation not permitted" });
      expect(await chooseShield("off", options)).toEqual({ shield: null, warning: null });
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it.skipIf(problem !== null)(`auto and on where it works: the shield, no warning${notice}`, async () => {
    const folder = dataFolder();
    for (const mode of ["auto", "on"] as const) {
      const choice = await chooseShield(mode, { hidden: [folder.data], sessionRoot: folder.sessionRoot });
      expect(choice).toMatchObject({ warning: null });
      expect("shield" in choice && choice.shield !== null).toBe(true);
    }
  });
});
