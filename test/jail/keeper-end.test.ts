/**
 * The keeper a jailed command leaves behind (src/core/jail/argv.ts) ends with the command. It
 * opens its fifo after the command may already have ended: were the fifo still there once the
 * runner closed its end, that open would wait for a writer forever, one stray process (with the
 * namespace's capabilities) per fast command. Many short commands at once make that window real
 * on a busy machine; none may leave a keeper behind.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runJailed } from "../../src/jail/run.js";
import { readProcs } from "../helpers/leftovers.js";
import { tempDir } from "../helpers/repo.js";

/** Processes still running the jail's stage script: keepers (the stage itself execs the command). */
const keepers = (): number[] =>
  readProcs()
    .filter((p) => p.cmdline.includes("tandem-jail") && p.cmdline.includes("keep()"))
    .map((p) => p.pid);

it.runIf(process.platform === "linux")(
  "leaves no keeper behind after many commands that end at once",
  async () => {
    const dir = tempDir("tandem-keeper-");
    const file = join(dir, "owned.txt");
    writeFileSync(file, "kept\n");
    const before = new Set(keepers());
    const codes: number[] = [];
    for (let round = 0; round < 12; round++) {
      const runs = Array.from({ length: 16 }, () =>
        runJailed([file], [file], ["true"], { cwd: dir, env: process.env, doctor: "tandem doctor" }),
      );
      codes.push(...(await Promise.all(runs.map((r) => r.code))));
    }
    expect(codes.every((c) => c === 0)).toBe(true);
    // A keeper that saw its fifo's end exits at once; give the last ones a moment to be reaped.
    let left: number[] = [];
    for (let i = 0; i < 50; i++) {
      left = keepers().filter((p) => !before.has(p));
      if (left.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const pid of left) process.kill(pid, "SIGKILL");
    expect(left).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe("kept\n");
  },
);
