/**
 * The subprocess wrapper against real processes (sh, bash, python3, coreutils). Every wait is
 * bounded; the slowest test is a notify period of about a second.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventually, processGone, TEST_PATH as PATH } from "./session-test-support";
import { startProcess, type ProcessSpec, type RunningProcess } from "./subprocess";

const UTC_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loom-subprocess-test-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  running: RunningProcess;
  lines: string[];
  notes: string[];
  /** Resolves when a line equal to `text` has been printed. */
  sawLine(text: string): Promise<void>;
}

function run(command: string, args: string[], overrides: Partial<ProcessSpec> = {}): Run {
  const lines: string[] = [];
  const notes: string[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  const running = startProcess({
    command,
    args,
    cwd: dir,
    env: { PATH },
    timeoutSeconds: null,
    cancelation: { mode: "TERMINATE", notifyPeriodSeconds: 0 },
    workingDirectory: dir,
    onLine: (line) => {
      lines.push(line);
      for (const waiter of waiters) if (waiter.text === line) waiter.resolve();
    },
    onNote: (note) => notes.push(note),
    ...overrides,
  });
  const sawLine = (text: string) => (lines.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve })));
  return { running, lines, notes, sawLine };
}

const sh = (script: string, overrides: Partial<ProcessSpec> = {}) => run("sh", ["-c", script], overrides);
const bash = (script: string, overrides: Partial<ProcessSpec> = {}) => run("bash", ["-c", script], overrides);
const python = (code: string, overrides: Partial<ProcessSpec> = {}) => run("python3", ["-c", code], overrides);

/**
 * A python3 program that prints "ready", then idles; on each SIGTERM it prints the Python
 * expression `reply` and, with `exit`, exits 0. Unbuffered writes: a handler that interrupts a
 * buffered print would fail with "reentrant call".
 */
function onTerm(reply: string, exit: boolean): string {
  return [
    "import os, signal, sys, time",
    "def say(text): os.write(1, (text + '\\n').encode())",
    `def handle(*_):\n    say(${reply})${exit ? "\n    sys.exit(0)" : ""}`,
    "signal.signal(signal.SIGTERM, handle)",
    "say('ready')",
    "while True: time.sleep(0.05)",
  ].join("\n");
}

describe("running a command", () => {
  it("reports exit code 0 as succeeded, with the pid", async () => {
    const { running, notes } = sh("exit 0");
    const result = await running.result;
    expect(result).toMatchObject({ outcome: "succeeded", exitCode: 0, signal: null, startError: null, failedByOutput: false });
    expect(result.pid).toBeGreaterThan(0);
    expect(running.pid).toBe(result.pid);
    expect(notes).toContain(`Command started as pid: ${result.pid}`);
  });

  it("reports a non-zero exit code as failed", async () => {
    expect(await sh("exit 3").running.result).toMatchObject({ outcome: "failed", exitCode: 3, signal: null });
  });

  it("passes arguments literally, without a shell", async () => {
    const args = ["$HOME", "a b", "it's", '"quoted"', "line1\nline2", "", "*", "; echo no"];
    const { running, lines } = run("python3", ["-c", "import json, sys; print(json.dumps(sys.argv))", ...args]);
    await running.result;
    expect(JSON.parse(lines[0] ?? "null")).toEqual(["-c", ...args]);
  });

  it("gives the process exactly the environment it was given", async () => {
    const { running, lines } = run("env", [], { env: { PATH, ONLY_THIS: "x y=z" } });
    await running.result;
    expect(lines.sort()).toEqual(["ONLY_THIS=x y=z", `PATH=${PATH}`]);
  });

  it("runs in the given cwd with stdin at end of file, in its own session and process group", async () => {
    const { running, lines } = bash("pwd; cat; python3 -c 'import os; print(os.getpgrp() == os.getpid(), os.getsid(0) == os.getpid())'");
    expect(await running.result).toMatchObject({ outcome: "succeeded" });
    expect(lines).toEqual([realpathSync(dir), "True True"]);
  });

  it("looks a bare command up on the action's PATH only", async () => {
    writeFileSync(join(dir, "tool"), "#!/bin/sh\necho from tool\n");
    chmodSync(join(dir, "tool"), 0o755);
    const found = run("tool", [], { env: { PATH: `${PATH}:${dir}` } });
    expect(await found.running.result).toMatchObject({ outcome: "succeeded" });
    expect(found.lines).toEqual(["from tool"]);
    expect(await run("tool", []).running.result).toMatchObject({ startError: "command not found: tool" });
    expect(await run("sh", ["-c", "true"], { env: {} }).running.result).toMatchObject({ startError: "command not found: sh" });
    expect(await run("./tool", []).running.result).toMatchObject({ outcome: "succeeded" });
  });

  it("reports a command that cannot start as a start error", async () => {
    const missing = await run("nosuch-loom-command", []).running.result;
    expect(missing).toEqual(expect.objectContaining({ outcome: "failed", exitCode: null, pid: null, startError: "command not found: nosuch-loom-command" }));
    writeFileSync(join(dir, "plain"), "echo hi\n", { mode: 0o644 });
    expect((await run("./plain", []).running.result).startError).toBe("permission denied: ./plain");
    const noCwd = await run("sh", ["-c", "true"], { cwd: join(dir, "gone") }).running.result;
    expect(noCwd.startError).toBe(`working directory does not exist: ${join(dir, "gone")}`);
  });
});

describe("output lines", () => {
  it("merges stdout and stderr in the order they were written", async () => {
    const { running, lines } = sh("echo a; echo b >&2; echo c; echo d >&2; printf 'e' >&2; echo f");
    await running.result;
    expect(lines).toEqual(["a", "b", "c", "d", "ef"]);
  });

  it("strips CRLF and delivers a last line without a newline", async () => {
    const { running, lines } = sh("printf 'one\\r\\ntwo\\r\\n\\nlast'");
    await running.result;
    expect(lines).toEqual(["one", "two", "", "last"]);
  });

  it("streams 100,000 lines in order", async () => {
    let count = 0;
    let inOrder = true;
    const { running } = run("seq", ["100000"], {
      onLine: (line) => {
        count += 1;
        if (line !== String(count)) inOrder = false;
      },
    });
    expect(await running.result).toMatchObject({ outcome: "succeeded" });
    expect(count).toBe(100_000);
    expect(inOrder).toBe(true);
  });

  it("splits a 200,000-character line at 64,000 characters", async () => {
    const { running, lines } = python("print('x' * 200000)");
    await running.result;
    expect(lines.map((line) => line.length)).toEqual([64_000, 64_000, 64_000, 8_000]);
  });

  it("splits 10 MB without a newline into bounded lines", async () => {
    let total = 0;
    let longest = 0;
    const { running } = python("import sys; sys.stdout.write('y' * (10 * 1024 * 1024))", {
      onLine: (line) => {
        total += line.length;
        longest = Math.max(longest, line.length);
      },
    });
    await running.result;
    expect(total).toBe(10 * 1024 * 1024);
    expect(longest).toBe(64_000);
  });

  it("decodes UTF-8 and replaces invalid bytes with U+FFFD", async () => {
    const { running, lines } = python("import sys; sys.stdout.buffer.write(b'ok\\xff\\xfeend\\n\\xc3\\xa9t\\xc3\\xa9\\n')");
    await running.result;
    expect(lines).toEqual(["ok\uFFFD\uFFFDend", "été"]);
  });

  it("cancels with TERMINATE and fails when onLine says fail, whatever the cancelation mode", async () => {
    const { running, notes, lines } = sh("echo fine; echo bad; sleep 5", {
      cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodSeconds: 30 },
      onLine: (line) => {
        lines.push(line);
        return line === "bad" ? "fail" : undefined;
      },
    });
    const result = await running.result;
    expect(result).toMatchObject({ outcome: "failed", failedByOutput: true, exitCode: null, signal: "SIGKILL" });
    expect(result.durationMs).toBeLessThan(2_000);
    expect(lines).toEqual(["fine", "bad"]);
    expect(notes.some((note) => /^Canceling subprocess \d+ via termination method at .*Z\.$/.test(note))).toBe(true);
    expect(existsSync(join(dir, "cancel_info.json"))).toBe(false);
  });
  it("treats an onLine that throws like one that says fail", async () => {
    const { running, notes } = sh("echo boom; sleep 5", {
      onLine: () => {
        throw new Error("handler broke");
      },
    });
    expect(await running.result).toMatchObject({ outcome: "failed", failedByOutput: true, signal: "SIGKILL" });
    expect(notes).toContain("Output handler failed: handler broke");
  });
});

describe("timeouts and cancelation", () => {
  it("times out with TERMINATE: SIGKILL, outcome timeout", async () => {
    const { running, notes } = sh("sleep 10", { timeoutSeconds: 0.3 });
    const result = await running.result;
    expect(result).toMatchObject({ outcome: "timeout", exitCode: null, signal: "SIGKILL" });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2_000);
    const timeoutNote = notes.find((note) => note.startsWith("TIMEOUT"));
    expect(timeoutNote).toMatch(/^TIMEOUT - Runtime limit reached at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\. Canceling action\.$/);
  });

  it("times out with NOTIFY_THEN_TERMINATE: cancel_info.json, then SIGTERM the script can handle", async () => {
    const before = Date.now();
    const { running, lines } = python(onTerm("'caught TERM\\n' + open('cancel_info.json').read()", true), {
      timeoutSeconds: 0.5,
      cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodSeconds: 5 },
    });
    const result = await running.result;
    expect(result).toMatchObject({ outcome: "timeout", exitCode: 0 });
    expect(result.durationMs).toBeLessThan(2_000);
    expect(lines.slice(0, 2)).toEqual(["ready", "caught TERM"]);
    const info = JSON.parse(lines[2] ?? "null") as { NotifyEnd: string };
    expect(Object.keys(info)).toEqual(["NotifyEnd"]);
    expect(info.NotifyEnd).toMatch(UTC_SECONDS);
    const notifyEnd = Date.parse(info.NotifyEnd);
    expect(notifyEnd).toBeGreaterThanOrEqual(Math.floor((before + 5_000) / 1000) * 1000);
    expect(notifyEnd).toBeLessThanOrEqual(Date.now() + 5_000);
    expect(readFileSync(join(dir, "cancel_info.json"), "utf8")).toBe(`{"NotifyEnd": "${info.NotifyEnd}"}`);
  });

  it("sends SIGTERM, then SIGKILL after the grace period to a process that ignores SIGTERM", async () => {
    const { running, notes, sawLine } = bash("trap 'echo ignoring TERM' TERM; echo ready; while :; do sleep 0.05; done", {
      cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodSeconds: 0.6 },
    });
    await sawLine("ready");
    const canceledAt = Date.now();
    running.cancel();
    running.cancel(); // idempotent
    const result = await running.result;
    const waited = Date.now() - canceledAt;
    expect(result).toMatchObject({ outcome: "canceled", signal: "SIGKILL", exitCode: null });
    expect(waited).toBeGreaterThanOrEqual(550);
    expect(waited).toBeLessThan(3_000);
    expect(notes.filter((note) => note.startsWith("Canceling subprocess"))).toHaveLength(1);
    expect(notes.some((note) => note.startsWith("Notify period ended. Terminate at"))).toBe(true);
  });

  it("lets a later cancel shorten the grace period and rewrite cancel_info.json", async () => {
    const { running, sawLine, lines } = python(onTerm("open('cancel_info.json').read()", false), {
      cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodSeconds: 60 },
    });
    await sawLine("ready");
    running.cancel();
    expect(await eventually(() => lines.length >= 2)).toBe(true);
    const canceledAt = Date.now();
    running.cancel({ graceSeconds: 0.3 });
    const result = await running.result;
    expect(Date.now() - canceledAt).toBeLessThan(2_000);
    expect(result).toMatchObject({ outcome: "canceled", signal: "SIGKILL", failedByOutput: false });
    // One notice per SIGTERM: the second one, written by the later cancel, ends about a minute sooner.
    const notices = lines.slice(1).map((line) => Date.parse((JSON.parse(line) as { NotifyEnd: string }).NotifyEnd));
    expect(notices).toHaveLength(2);
    const [first, second] = notices as [number, number];
    expect(first - second).toBeGreaterThan(50_000);
  });

  it("kills the whole process group, background children included", async () => {
    const { running, lines, sawLine } = sh("sleep 30 & echo $!; echo started; wait");
    await sawLine("started");
    const sleeper = Number(lines[0]);
    expect(processGone(sleeper)).toBe(false);
    running.cancel();
    expect(await running.result).toMatchObject({ outcome: "canceled", signal: "SIGKILL" });
    expect(await eventually(() => processGone(sleeper))).toBe(true);
  });

  it("kills stragglers of a notified action once its main process has exited", async () => {
    const { running, lines, sawLine } = bash("(trap '' TERM; exec sleep 30) & echo $!; trap 'exit 0' TERM; echo ready; wait", {
      cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodSeconds: 30 },
    });
    await sawLine("ready");
    const stubborn = Number(lines[0]);
    running.cancel();
    expect(await running.result).toMatchObject({ outcome: "canceled", exitCode: 0 });
    expect(await eventually(() => processGone(stubborn))).toBe(true);
  });

  it("cancel before the process has started: nothing runs", async () => {
    const { running, lines } = sh("echo should not run");
    running.cancel();
    expect(await running.result).toMatchObject({ outcome: "canceled", pid: null, exitCode: null, startError: null });
    expect(lines).toEqual([]);
  });

  it("an AbortSignal cancels; cancel after the exit changes nothing", async () => {
    const controller = new AbortController();
    const aborted = sh("echo up; sleep 10", { abortSignal: controller.signal });
    await aborted.sawLine("up");
    controller.abort();
    expect(await aborted.running.result).toMatchObject({ outcome: "canceled", signal: "SIGKILL" });
    const done = sh("exit 0");
    const result = await done.running.result;
    const notesAtExit = [...done.notes];
    done.running.cancel();
    expect(result.outcome).toBe("succeeded");
    // No cancel notice, no signal: the request is dropped.
    expect(done.notes).toEqual(notesAtExit);
  });
});

describe("the action ends when its main process exits", () => {
  it("a process that closed its output still reports its exit when it ends", async () => {
    const { running, lines } = sh("echo before; exec >&- 2>&-; sleep 0.4; exit 3");
    const result = await running.result;
    expect(result).toMatchObject({ outcome: "failed", exitCode: 3 });
    expect(result.durationMs).toBeGreaterThanOrEqual(390);
    expect(lines).toEqual(["before"]);
  });

  it("a background child holding the output open does not hang the result", async () => {
    const { running, lines, notes } = sh("sleep 5 & echo $!; echo main done");
    const result = await running.result;
    const holder = Number(lines[0]);
    try {
      expect(result).toMatchObject({ outcome: "succeeded", exitCode: 0 });
      expect(result.durationMs).toBeLessThan(1_500);
      expect(lines[1]).toBe("main done");
      expect(notes.some((note) => note.startsWith("Stopped reading output"))).toBe(true);
      expect(processGone(holder)).toBe(false); // a normal exit leaves background processes alone
    } finally {
      process.kill(holder, "SIGKILL");
    }
  });
});
