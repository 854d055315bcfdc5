/**
 * Before a git command runs: which dirty paths it would overwrite or remove (or, for a
 * commit that skips its hook, commit), asked of git itself. One `rev-parse` finds the
 * working tree (and resolves what the plan needs resolved), one `status` finds the dirty
 * entries, and, when any are dirty, one more query names the paths the command touches
 * (merges, rebases and pulls first read the configuration that decides their autostash).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type AliasMap, aliasesOf } from "../core/git/alias.js";
import type { GitCall, GitImpact } from "../core/git/call.js";
import {
  CONFIG_KEYS,
  type Effect,
  type GitImpactPlan,
  type Into,
  NONE,
  planGitImpact,
  type Rule,
  retarget,
  revisionsToCheck,
} from "../core/git/impact-plan.js";
import { parseConfigZ, parsePathspecFile, parseRevParse, picks, type RevParse } from "../core/git/output.js";
import { ImpactQueries, type QueryContext } from "./impact-queries.js";
import { GitError, gitStatus } from "./run.js";

/** Something that makes the effect impossible to work out; its message is the reason. */
class Unworkable extends Error {}

/** The aliases git would see in a directory with these `-c`/location words; one hook shares one. */
export type AliasReader = (cwd: string, configArgs: readonly string[]) => AliasMap;

/** Asks git for the aliases once per directory and words (`git config -z --get-regexp ^alias\.`). */
export function aliasReader(): AliasReader {
  const cache = new Map<string, AliasMap>();
  return (cwd, configArgs) => {
    const key = JSON.stringify([cwd, configArgs]);
    let found = cache.get(key);
    if (found === undefined) {
      const res = gitStatus(cwd, [...configArgs, "config", "-z", "--get-regexp", "^alias\\."]);
      if (res.status !== 0 && res.status !== 1)
        throw new Unworkable(`git config failed: ${res.stderr.trim().split("\n")[0] ?? ""}`);
      found = aliasesOf(parseConfigZ(res.stdout));
      cache.set(key, found);
    }
    return found;
  };
}

/**
 * What `git ARGS` would do to uncommitted work in its working tree. `baseCwd` is the
 * tool call's directory; `call.cwd` is relative to it, absolute, or null (unknown).
 * A command that puts nothing at risk is told from its words alone, without running
 * git, and then `repoTop` is null. Never throws: what cannot be worked out is `unknown`.
 */
export function gitImpact(call: GitCall, baseCwd: string, aliases: AliasReader = aliasReader()): GitImpact {
  const found: { top: string | null } = { top: null };
  try {
    return impact(call, baseCwd, found, aliases);
  } catch (e) {
    return { ...result(found.top), unknown: reasonOf(e) };
  }
}

function reasonOf(e: unknown): string {
  if (e instanceof GitError) {
    const detail = e.stderr.trim().split("\n")[0] || `exit ${e.status ?? "signal"}`;
    return `git ${e.args.find((a) => !a.startsWith("-") && !a.includes("=")) ?? ""} failed: ${detail}`;
  }
  return e instanceof Error ? e.message : String(e);
}

function impact(
  call: GitCall,
  baseCwd: string,
  found: { top: string | null },
  readAliases: AliasReader,
): GitImpact {
  if (call.cwd === null) throw new Unworkable("the directory the git command runs in cannot be told");
  let plan = planGitImpact(call.args);
  let aliases: AliasMap | undefined;
  if (plan.effect.kind === "unknown" && plan.effect.alias !== undefined) {
    // A subcommand git does not know: the repository's config may make it an alias.
    aliases = readAliases(resolve(baseCwd, call.cwd, ...plan.globals.chdir), plan.globals.configArgs);
    plan = planGitImpact(call.args, undefined, aliases);
  }
  if (plan.effect.kind === "none") return result(null);
  if (plan.effect.kind === "unknown") throw new Unworkable(plan.effect.reason);
  const cwd = resolve(baseCwd, call.cwd, ...plan.globals.chdir);
  if (!existsSync(cwd)) throw new Unworkable(`the directory ${cwd} does not exist`);
  const check = revisionsToCheck(plan.effect);
  const rp = revParse(cwd, plan.globals.configArgs, check.verify, check.glob);
  found.top = rp.top;
  const base: QueryContext = {
    top: rp.top,
    cwd,
    prefix: rp.prefix,
    configArgs: plan.globals.configArgs,
    pathspecArgs: plan.globals.pathspecArgs,
    specs: [],
    stashHasUntracked: rp.verified,
  };
  const whole = new ImpactQueries(base);
  const effect = settle(plan, call.args, rp, whole, aliases);
  if (effect.kind === "none") return result(rp.top);
  if (effect.kind !== "rules") throw new Unworkable(effect.kind === "unknown" ? effect.reason : "no plan");
  const specs = readPathspec(effect.pathspec, cwd);
  const queries = specs.length === 0 ? whole : new ImpactQueries({ ...base, specs });
  const into = new Map<Into, Set<string>>();
  for (const r of effect.rules) {
    const dest = r.into ?? effect.into;
    const paths = into.get(dest) ?? new Set<string>();
    for (const p of ruleResult(r, effect.rules, queries)) paths.add(p);
    into.set(dest, paths);
  }
  const sorted = (dest: Into) => [...(into.get(dest) ?? [])].sort();
  return {
    repoTop: rp.top,
    atRisk: sorted("atRisk"),
    committed: sorted("committed"),
    stagedLost: sorted("stagedLost"),
    stages: sorted("stages"),
    commitsIndex: effect.commitsIndex === true,
    unknown: null,
  };
}

function result(repoTop: string | null): GitImpact {
  return {
    repoTop,
    atRisk: [],
    committed: [],
    stagedLost: [],
    stages: [],
    commitsIndex: false,
    unknown: null,
  };
}

/** Answers what the plan left open: the configuration it depends on, then branch or paths. */
function settle(
  plan: GitImpactPlan,
  args: string[],
  rp: RevParse,
  whole: ImpactQueries,
  aliases?: AliasMap,
): Effect {
  let effect = plan.effect;
  if (effect.kind === "config") {
    // Merges, rebases and pulls only ever take dirty entries: with none, skip reading the config.
    if (whole.status(false, { untracked: true }).length === 0) return NONE;
    effect = planGitImpact(args, readConfig(whole.cwd, plan.globals.configArgs), aliases).effect;
  }
  if (effect.kind === "ref-or-path") {
    // A name git would guess a new branch from (a remote's branch of that name) switches too.
    const remote = effect.guess ? preferredRemote(rp.remotes) : undefined;
    if (rp.verified) effect = effect.asRef;
    else effect = remote === undefined ? effect.asPath : retarget(effect.asRef, effect.name, remote);
  }
  return effect;
}

/** Of several remotes with the branch, git takes `origin`'s when told to; the first stands in otherwise. */
function preferredRemote(refs: string[]): string | undefined {
  return refs.find((r) => r.startsWith("refs/remotes/origin/")) ?? refs[0];
}

/** The top, the directory's prefix, and the revisions the plan asked about, in one process. */
function revParse(cwd: string, configArgs: string[], verify: string | null, glob: string | null): RevParse {
  const args = [...configArgs, "rev-parse", "--show-toplevel", "--show-prefix"];
  if (glob !== null) args.push("--symbolic-full-name", `--glob=${glob}`);
  if (verify !== null) args.push("--verify", "-q", "--end-of-options", verify);
  const res = gitStatus(cwd, args);
  if (res.status !== 0 && !(res.status === 1 && verify !== null)) {
    throw new Unworkable(`not in a git working tree (${cwd}): ${res.stderr.trim().split("\n")[0] ?? ""}`);
  }
  const rp = parseRevParse(res.stdout, res.status, verify !== null);
  if (rp.top === "") throw new Unworkable(`not in a git working tree (${cwd})`);
  return rp;
}

function readConfig(cwd: string, configArgs: string[]): Map<string, string> {
  const res = gitStatus(cwd, [...configArgs, "config", "-z", "--get-regexp", CONFIG_KEYS]);
  if (res.status !== 0 && res.status !== 1) throw new Unworkable(`git config failed: ${res.stderr.trim()}`);
  return parseConfigZ(res.stdout);
}

/** The command's pathspecs, with those of `--pathspec-from-file` read (relative to its directory). */
function readPathspec(
  pathspec: { specs: string[]; fromFile: { file: string; nul: boolean } | null },
  cwd: string,
) {
  if (!pathspec.fromFile) return pathspec.specs;
  const { file, nul } = pathspec.fromFile;
  if (file === "-") throw new Unworkable("the pathspecs are read from stdin");
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch {
    throw new Unworkable(`the pathspec file ${file} cannot be read`);
  }
  return [...pathspec.specs, ...parsePathspecFile(text, nul)];
}

/** One rule's paths: the picked dirty entries, narrowed to the paths its source names. */
function ruleResult(r: Rule, all: Rule[], queries: ImpactQueries): string[] {
  if (r.source.kind === "clean") return queries.clean(r.source.args, r.pick);
  if (r.source.kind === "paths") return queries.paths(r.source.paths, r.pick);
  // One status serves every rule over the same scope: ask for what any of them picks.
  const want = all
    .filter((o) => o.scoped === r.scoped)
    .reduce(
      (acc, o) => ({
        untracked: acc.untracked || !!o.pick.untracked,
        ignored: acc.ignored || !!o.pick.ignored,
      }),
      {
        untracked: false,
        ignored: false,
      },
    );
  const dirty = queries.status(r.scoped, want).filter((e) => picks(r.pick, e));
  if (dirty.length === 0 || r.source.kind === "dirty") return dirty.map((e) => e.path);
  const named = queries.candidates(r.source, r.scoped);
  return dirty.filter((e) => named.has(e.path)).map((e) => e.path);
}
