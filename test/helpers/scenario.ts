/**
 * Scenario repositories built once and copied (issue 39 §5). Building a scenario runs git (and
 * often hooks) a dozen times; a copy is one in-process tree copy, `cp -a` without a process. The
 * template lives in the test tmp dir for the file's run and goes when the file ends.
 *
 * - `scenario(name, build)`: a fresh copy at a new path for each test. The store is not copied: a
 *   copied store is, rightly, a replaced one (decision 0008), and it records absolute paths.
 * - `restorable(name, build)`: a world whose store matters (claims taken through the real hooks),
 *   put back at the same path from a snapshot before each case, since the store names that path.
 */
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEachFile } from "./per-file.js";
import { tempDir } from "./repo.js";

const bases: string[] = [];
/**
 * Counts the test files done in this worker: a template (and the agents a world started) belongs
 * to one file, so a scenario built in an earlier file is built again.
 */
let fileNumber = 0;
afterEachFile(() => {
  for (const base of bases.splice(0)) rmSync(base, { recursive: true, force: true });
  fileNumber++;
});

function templateBase(name: string): string {
  const base = realpathSync(mkdtempSync(join(tmpdir(), `tandem-scenario-${name}-`)));
  bases.push(base);
  return base;
}

/** Like `cp -a`: modes, times and symlinks as they are, so git's index still matches the files. */
function copyTree(from: string, to: string, skip?: string): void {
  cpSync(from, to, {
    recursive: true,
    preserveTimestamps: true,
    verbatimSymlinks: true,
    // A prefix, not a directory: the store's identity files sit beside it (`tandem.store-id`).
    ...(skip ? { filter: (src: string) => !src.startsWith(skip) } : {}),
  });
}

/**
 * A repository `build` makes once in `repo` (a directory that does not exist yet), copied to a new
 * temp path for each call. `build` must leave no absolute path of the template in the tree.
 */
export function scenario(name: string, build: (repo: string) => void): () => string {
  let template: { repo: string; file: number } | null = null;
  return () => {
    if (template?.file !== fileNumber) {
      const repo = join(templateBase(name), "repo");
      build(repo);
      template = { repo, file: fileNumber };
    }
    const copy = join(tempDir(), "repo");
    copyTree(template.repo, copy, join(template.repo, ".git", "tandem"));
    return copy;
  };
}

/**
 * A world `build` makes once under `base` (its repository at `repo`, store included), put back at
 * the same path from a snapshot before each call: every case starts from the same bytes.
 */
export function restorable<W extends { repo: string }>(
  name: string,
  build: (base: string) => Promise<W>,
): () => Promise<W> {
  let built: { world: W; snapshot: string; file: number } | null = null;
  return async () => {
    if (built?.file !== fileNumber) {
      const base = templateBase(name);
      const world = await build(base);
      const snapshot = join(base, "snapshot");
      copyTree(world.repo, snapshot);
      built = { world, snapshot, file: fileNumber };
    }
    rmSync(built.world.repo, { recursive: true, force: true });
    copyTree(built.snapshot, built.world.repo);
    return built.world;
  };
}
