/**
 * The git queries an impact plan is answered with, run in the command's working
 * tree: the dirty entries (`status`), and the paths a source names (diffs, logs,
 * `apply --numstat`, `clean -n`). Each returns paths relative to the top.
 */
import { isAbsolute, relative } from "node:path";
import type { Pick, Source } from "../core/git/impact-plan.js";
import { parseCleanDryRun, parseNumstatZ, picks, topRelative } from "../core/git/output.js";
import { parseStatus, type StatusEntry, statusEntries } from "../core/git/status.js";
import { git, splitZ } from "./run.js";
import { readStatus, statusArgs } from "./status.js";

export interface QueryContext {
  top: string;
  cwd: string;
  /** The command's directory from the top ("" or `dir/`). */
  prefix: string;
  /** `-c k=v` words from the command, so each query reads the configuration it would. */
  configArgs: string[];
  /** `--literal-pathspecs` and friends, for queries over the command's own pathspecs. */
  pathspecArgs: string[];
  /** The command's pathspecs (relative to cwd); empty for the whole tree. */
  specs: string[];
  /** Whether the stash being applied holds untracked files (its third parent resolved). */
  stashHasUntracked: boolean;
}

/** Names only, from the top, whatever the user's diff and colour settings. */
const DIFF = ["--name-only", "-z", "--no-renames", "--no-relative", "--no-ext-diff", "--no-color"];
/** A log of the named commits only, root commits included, without signature lines. */
const LOG = ["log", "--no-walk", "--root", "--no-show-signature", "--format="];

export class ImpactQueries {
  private readonly statuses = new Map<string, StatusEntry[]>();

  constructor(private readonly ctx: QueryContext) {}

  get cwd(): string {
    return this.ctx.cwd;
  }

  /** Runs git over the command's pathspecs (in its directory) or over the whole tree (at the top). */
  private run(scoped: boolean, args: string[]): string {
    const c = this.ctx;
    const own = scoped && c.specs.length > 0;
    const dir = own ? c.cwd : c.top;
    return git(dir, [...c.configArgs, ...(own ? c.pathspecArgs : []), ...args, ...(own ? c.specs : [])]);
  }

  /** Dirty entries, over the pathspec or the whole tree; untracked files are listed only when wanted. */
  status(scoped: boolean, want: Pick): StatusEntry[] {
    const key = `${scoped && this.ctx.specs.length > 0}:${!!want.untracked}:${!!want.ignored}`;
    let entries = this.statuses.get(key);
    if (!entries) {
      const args = statusArgs({
        untracked: want.untracked || want.ignored ? "all" : "no",
        ignored: want.ignored ? "traditional" : undefined,
      });
      entries = statusEntries(parseStatus(this.run(scoped, [...args, "--"])).records);
      this.statuses.set(key, entries);
    }
    return entries;
  }

  /** The paths a source names (all but `dirty`, `clean` and `paths`, which are answered whole). */
  candidates(source: Source, scoped: boolean): Set<string> {
    const names = (args: string[]) => new Set(splitZ(this.run(scoped, [...args, "--"])));
    switch (source.kind) {
      case "differs":
        return names(["diff", ...DIFF, "--end-of-options", source.rev]);
      case "changed": {
        if (source.from === source.to) return new Set();
        const range = source.mergeBase ? [`${source.from}...${source.to}`] : [source.from, source.to];
        return names(["diff", ...DIFF, "--end-of-options", ...range]);
      }
      case "commits":
        return names([...LOG, "-m", ...DIFF, "--end-of-options", ...source.revs]);
      case "stash": {
        // The stash commit against its base (not its other parents: the index, the untracked
        // files), and the root commit of its untracked files.
        const revs = [source.rev, ...(this.ctx.stashHasUntracked ? [`${source.rev}^3`] : [])];
        return names([...LOG, "--diff-merges=first-parent", ...DIFF, "--end-of-options", ...revs]);
      }
      case "patch": {
        const c = this.ctx;
        return new Set(
          parseNumstatZ(git(c.cwd, [...c.configArgs, "apply", "--numstat", "-z", ...source.args])),
        );
      }
      default:
        throw new Error(`no candidate query for a ${source.kind} source`);
    }
  }

  /** What `git clean` would remove: its dry run, with each directory it names opened up. */
  clean(args: string[], pick: Pick): string[] {
    const c = this.ctx;
    const dryRun = ["-c", "core.quotePath=false", "clean", "-n", ...args];
    const found = parseCleanDryRun(git(c.cwd, [...c.configArgs, ...c.pathspecArgs, ...dryRun]), c.prefix);
    const dirs = found.filter((p) => p.endsWith("/"));
    const files = found.filter((p) => !p.endsWith("/"));
    if (dirs.length === 0) return files;
    return [...files, ...this.under(dirs, pick).map((e) => e.path)];
  }

  /** Dirty entries at literal paths (relative to the command's directory), or below them when `under`. */
  paths(paths: { path: string; under: boolean }[], pick: Pick): string[] {
    const wanted = paths
      .map(({ path, under }) => ({ path: this.fromTop(path), under }))
      .filter((p): p is { path: string; under: boolean } => p.path !== null && p.path !== "");
    if (wanted.length === 0) return [];
    const entries = this.under(
      wanted.map((w) => w.path),
      pick,
    );
    return entries
      .filter((e) => wanted.some((w) => e.path === w.path || (w.under && e.path.startsWith(`${w.path}/`))))
      .map((e) => e.path);
  }

  /** Picked dirty entries at or under these paths (from the top). */
  private under(paths: string[], pick: Pick): StatusEntry[] {
    const report = readStatus(
      this.ctx.top,
      { ignored: pick.ignored ? "traditional" : undefined, paths: paths.map((p) => p.replace(/\/$/, "")) },
      { before: this.ctx.configArgs },
    );
    return statusEntries(report.records).filter((e) => picks(pick, e));
  }

  private fromTop(path: string): string | null {
    if (!isAbsolute(path)) return topRelative(this.ctx.prefix, path);
    const rel = relative(this.ctx.top, path);
    return rel === ".." || rel.startsWith("../") || isAbsolute(rel) ? null : rel;
  }
}
