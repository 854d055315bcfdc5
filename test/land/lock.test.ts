import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tryLock } from "../../src/land/lock.js";
import { bundleForTest } from "../helpers/bundle.js";
import { tempDir } from "../helpers/repo.js";

let workerJs = "";

beforeAll(async () => {
  workerJs = await bundleForTest("test/helpers/land-lock-worker.ts");
});

function runWorker(dir: string, count: number): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const args = [join(dir, "land.lock"), join(dir, "inside"), join(dir, "log"), String(count)];
    const child = spawn(process.execPath, [workerJs, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? -1, stderr }));
  });
}

/** A pid no process has: past the kernel's limit. */
const DEAD_PID = 4_194_305;

describe("the land lock", () => {
  it("eight processes taking it 100 times each are never inside together, and every turn happens", async () => {
    const dir = tempDir();
    const runs = await Promise.all(Array.from({ length: 8 }, () => runWorker(dir, 100)));
    for (const r of runs) expect(r, r.stderr).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(join(dir, "log"), "utf8").trim().split("\n")).toHaveLength(800);
    expect(readdirSync(dir).sort()).toEqual(["log"]);
  });

  it("is refused to a second taker while its holder lives, naming the holder", () => {
    const file = join(tempDir(), "land.lock");
    const release = tryLock(file);
    expect(typeof release).toBe("function");
    expect(tryLock(file)).toEqual({ heldBy: process.pid });
    (release as () => void)();
    expect(existsSync(file)).toBe(false);
  });

  it("takes over a lock whose holder died", () => {
    const file = join(tempDir(), "land.lock");
    writeFileSync(file, String(DEAD_PID));
    const release = tryLock(file);
    expect(typeof release).toBe("function");
    expect(readFileSync(file, "utf8")).toBe(String(process.pid));
  });

  it("on release leaves alone a lock that is no longer its own, and does not fail when it is gone", () => {
    const file = join(tempDir(), "land.lock");
    const release = tryLock(file) as () => void;
    writeFileSync(file, "1");
    release();
    expect(readFileSync(file, "utf8")).toBe("1");
    const again = join(tempDir(), "land.lock");
    const gone = tryLock(again) as () => void;
    unlinkSync(again);
    expect(() => gone()).not.toThrow();
  });
});
