import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keepPresence, takeKeeper } from "../../src/remote/nats-keeper.js";
import { tempDir } from "../helpers/repo.js";

/** One presence keeper per checkout (decision 0063): a live one holds the place, a dead one's is taken. */

const file = (dir: string) => join(dir, "nats-keeper.pid");

/** A pid that ran and exited: no process has it now (pids are not reused this soon). */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid!;
}

describe("takeKeeper", () => {
  it("the first takes it; a second, while the first lives, does not; release frees it", () => {
    const dir = tempDir();
    const release = takeKeeper(dir);
    expect(release).not.toBeNull();
    expect(readFileSync(file(dir), "utf8").trim()).toBe(String(process.pid));
    expect(takeKeeper(dir)).toBeNull();
    release!();
    expect(existsSync(file(dir))).toBe(false);
  });

  it("a dead keeper's file is taken over", () => {
    const dir = tempDir();
    writeFileSync(file(dir), `${deadPid()}\n`);
    const release = takeKeeper(dir);
    expect(release).not.toBeNull();
    release!();
  });

  it("release leaves a file another keeper wrote since", () => {
    const dir = tempDir();
    const release = takeKeeper(dir)!;
    writeFileSync(file(dir), "1\n");
    release();
    expect(readFileSync(file(dir), "utf8").trim()).toBe("1");
  });
});

describe("keepPresence", () => {
  it("runs rounds until one finds no live session; a busy round does not stop it", async () => {
    const answers: (boolean | null)[] = [true, null, true, false, true];
    let calls = 0;
    await keepPresence(1, async () => {
      const next = answers[calls++];
      return next === undefined ? false : next;
    });
    expect(calls).toBe(4);
  });
});
