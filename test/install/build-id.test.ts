import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/repo.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** A copy of what scripts/build.mjs reads (its own src/, so a test can change it), built in a temp dir. */
function checkout(): string {
  const dir = tempDir("tandem-build-");
  mkdirSync(join(dir, "scripts"));
  copyFileSync(join(REPO, "scripts", "build.mjs"), join(dir, "scripts", "build.mjs"));
  copyFileSync(join(REPO, "package.json"), join(dir, "package.json"));
  cpSync(join(REPO, "src"), join(dir, "src"), { recursive: true });
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  return dir;
}

const buildIn = (dir: string) =>
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: "pipe" });
const buildId = (dir: string) =>
  /^build='([^']+)'$/m.exec(readFileSync(join(dir, "dist", "tandem"), "utf8"))![1]!;
const written = (dir: string) =>
  ["tandem", "tandem.cjs", "server.cjs", "hook.cjs"].map((f) => statSync(join(dir, "dist", f)).mtimeMs);

describe("the build id", () => {
  it("stays, and no file is rewritten, when unchanged sources are built again", () => {
    const dir = checkout();
    buildIn(dir);
    const [id, times] = [buildId(dir), written(dir)];
    const cache = join(dir, "dist", "hook.cjs.hook-stop.v8cache");
    writeFileSync(cache, "cache");
    buildIn(dir);
    expect(buildId(dir)).toBe(id);
    expect(written(dir)).toEqual(times);
    expect(readFileSync(cache, "utf8")).toBe("cache");
    // Every bundle that names its build names this one.
    expect(readFileSync(join(dir, "dist", "server.cjs"), "utf8")).toContain(JSON.stringify(id));
  });

  it("changes when what is built changes, and the old code caches go", () => {
    const dir = checkout();
    buildIn(dir);
    const id = buildId(dir);
    const cache = join(dir, "dist", "hook.cjs.hook-stop.v8cache");
    writeFileSync(cache, "cache");
    appendFileSync(join(dir, "src", "thin", "tandem.sh"), "# changed\n");
    buildIn(dir);
    expect(buildId(dir)).not.toBe(id);
    expect(() => statSync(cache)).toThrow();
  });
});
