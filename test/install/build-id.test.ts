import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/repo.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

function buildIn(dir: string): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: dir, stdio: "pipe" });
}

/** A copy of what scripts/build.mjs reads (its own src/, so a test can change it), built once. */
let built: string | undefined;

/** A fresh copy of the built checkout for one test: a build costs ~2.5 s of CPU, a copy nothing. */
function checkout(): string {
  if (!built) {
    built = mkdtempSync(join(tmpdir(), "tandem-build-"));
    mkdirSync(join(built, "scripts"));
    copyFileSync(join(REPO, "scripts", "build.mjs"), join(built, "scripts", "build.mjs"));
    copyFileSync(join(REPO, "package.json"), join(built, "package.json"));
    cpSync(join(REPO, "src"), join(built, "src"), { recursive: true });
    symlinkSync(join(REPO, "node_modules"), join(built, "node_modules"));
    buildIn(built);
  }
  const dir = tempDir("tandem-build-");
  cpSync(built, dir, { recursive: true, preserveTimestamps: true });
  return dir;
}
afterAll(() => {
  if (built) rmSync(built, { recursive: true, force: true });
});

const buildId = (dir: string) =>
  /^build='([^']+)'$/m.exec(readFileSync(join(dir, "dist", "tandem"), "utf8"))![1]!;
const written = (dir: string) =>
  ["tandem", "tandem.cjs", "server.cjs", "hook.cjs"].map((f) => statSync(join(dir, "dist", f)).mtimeMs);

describe("the build id", () => {
  it("stays, and no file is rewritten, when unchanged sources are built again", () => {
    const dir = checkout();
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
    const id = buildId(dir);
    const cache = join(dir, "dist", "hook.cjs.hook-stop.v8cache");
    writeFileSync(cache, "cache");
    appendFileSync(join(dir, "src", "thin", "tandem.sh"), "# changed\n");
    buildIn(dir);
    expect(buildId(dir)).not.toBe(id);
    expect(() => statSync(cache)).toThrow();
  });
});
