import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  environOf,
  FILE_MARK,
  leftoverReport,
  leftoversIn,
  procFinder,
  RUN_MARK,
  readProcs,
  reapLeftovers,
  removeWorkDirs,
} from "../helpers/leftovers.js";

const env = (vars: Record<string, string>) =>
  Object.entries(vars)
    .map(([k, v]) => `${k}=${v}\0`)
    .join("");

describe("which processes a run left behind", () => {
  const cases: { name: string; environ: string; file?: string; found: boolean }[] = [
    {
      name: "both marks of this run",
      environ: env({ [RUN_MARK]: "r1", [FILE_MARK]: "a.test.ts" }),
      found: true,
    },
    { name: "another run's", environ: env({ [RUN_MARK]: "r2", [FILE_MARK]: "a.test.ts" }), found: false },
    { name: "the runner's worker (no file mark)", environ: env({ [RUN_MARK]: "r1" }), found: false },
    { name: "unmarked", environ: env({ PATH: "/bin" }), found: false },
    { name: "empty (a zombie)", environ: "", found: false },
    {
      name: "this file's, asked per file",
      environ: env({ [RUN_MARK]: "r1", [FILE_MARK]: "a.test.ts" }),
      file: "a.test.ts",
      found: true,
    },
    {
      name: "another file's, asked per file",
      environ: env({ [RUN_MARK]: "r1", [FILE_MARK]: "b.test.ts" }),
      file: "a.test.ts",
      found: false,
    },
    { name: "a value holding '='", environ: `X=a=b\0${RUN_MARK}=r1\0${FILE_MARK}=c=d.ts\0`, found: true },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = leftoversIn([{ pid: 42, environ: c.environ, cmdline: "sleep\x00600\x00" }], "r1", c.file);
      expect(got.map((l) => [l.pid, l.command])).toEqual(c.found ? [[42, "sleep 600"]] : []);
    });

  it("parses an environment block", () => {
    expect([...environOf("A=1\0B=x=y\0\0junk\0")]).toEqual([
      ["A", "1"],
      ["B", "x=y"],
    ]);
  });

  it("reports each process with the file that started it and what to do", () => {
    const text = leftoverReport(
      [{ pid: 7, command: "opencode run", file: "test/e2e/opencode.test.ts" }],
      "a run",
    );
    expect(text).toContain("pid 7 (from test/e2e/opencode.test.ts): opencode run");
    expect(text).toContain("kill its process group on timeout");
  });
});

/** A detached `sleep` marked as a test of a run of its own, so the real run's check never sees it. */
function plant(run: string, file: string, seconds: string) {
  const child = spawn("sleep", [seconds], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, [RUN_MARK]: run, [FILE_MARK]: file },
  });
  child.unref();
  return child.pid!;
}

const alive = (pid: number) => readProcs().some((p) => p.pid === pid && p.environ.length > 0);

describe.runIf(process.platform === "linux")("the check on real processes", () => {
  it("finds a planted leftover, names it, and kills it", async () => {
    const run = randomUUID();
    const pid = plant(run, "planted.test.ts", "600");
    const left = await reapLeftovers(procFinder(run), 200);
    expect(left.map((l) => [l.pid, l.file, l.command])).toEqual([[pid, "planted.test.ts", "sleep 600"]]);
    expect(alive(pid)).toBe(false);
  });

  it("does not report a process that ends within the grace", async () => {
    const run = randomUUID();
    const pid = plant(run, "planted.test.ts", "0.2");
    expect(await reapLeftovers(procFinder(run), 60_000)).toEqual([]);
    expect(alive(pid)).toBe(false);
  });

  it("asked per file, leaves another file's process alone", async () => {
    const run = randomUUID();
    const other = plant(run, "other.test.ts", "600");
    try {
      expect(await reapLeftovers(procFinder(run, "mine.test.ts"), 100)).toEqual([]);
      expect(alive(other)).toBe(true);
    } finally {
      await reapLeftovers(procFinder(run), 0);
    }
  });
});

describe.runIf(process.platform === "linux")("removing a test's directories", () => {
  it("ends what still writes there, then removes them; a process elsewhere stays", async () => {
    const run = randomUUID();
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "tandem-workdir-")));
    const marks = { ...process.env, [RUN_MARK]: run, [FILE_MARK]: "writer.test.ts" };
    // Keeps writing new files into a subdirectory, as a server started on demand writes its state.
    const writer = spawn("sh", ["-c", "mkdir -p s; i=0; while :; do i=$((i+1)); : > s/f$i; done"], {
      cwd: dir,
      detached: true,
      stdio: "ignore",
      env: marks,
    });
    writer.unref();
    const elsewhere = plant(run, "writer.test.ts", "600");
    try {
      while (!existsSync(join(dir, "s"))) await new Promise((r) => setTimeout(r, 20));
      await removeWorkDirs([dir], run);
      expect(existsSync(dir)).toBe(false);
      expect(alive(writer.pid!)).toBe(false);
      expect(alive(elsewhere)).toBe(true);
    } finally {
      await reapLeftovers(procFinder(run), 0);
    }
  });
});
