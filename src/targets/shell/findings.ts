/** What the walk of one command has found so far: write targets, patches, git calls, forged hooks. */
import type { GitCall } from "../../core/git/call.js";
import { parsePatchTargets, writePaths } from "../apply-patch.js";
import { placeTarget } from "./scope.js";
import type { Arg, Scope, ShellTargets } from "./types.js";

export class Findings {
  private readonly writes = new Set<string>();
  private readonly patches: string[] = [];
  private readonly gitCalls = new Map<string, GitCall>();
  private opaque = false;
  private tandemHook = false;
  private readonly wiringCommands = new Set<string>();
  /** Aliases the command's own `git config` defined, by lower-cased name (null: unknown value). */
  private readonly gitAliases = new Map<string, Arg>();
  /** Link-making commands met, and whether anything else wrote: together they make the result opaque. */
  private linkCalls = 0;
  private otherWrites = false;
  private readonly protectedRefs = new Set<string>();

  result(): ShellTargets {
    return {
      writes: [...this.writes],
      patches: [...this.patches],
      gitCalls: [...this.gitCalls.values()],
      tandemHook: this.tandemHook,
      wiringCommands: [...this.wiringCommands],
      protectedRefs: [...this.protectedRefs],
      opaque: this.opaque || this.throughLinks(),
    };
  }

  markOpaque(): void {
    this.opaque = true;
  }

  markTandemHook(): void {
    this.tandemHook = true;
  }

  markWiringCommand(text: string): void {
    this.wiringCommands.add(text);
  }

  markProtectedRefs(text: string): void {
    this.protectedRefs.add(text);
  }

  addTarget(path: Arg, scope: Scope): void {
    if (this.place(path, scope)) this.otherWrites = true;
  }

  addLinkTargets(paths: Arg[], scope: Scope): void {
    this.linkCalls++;
    for (const path of paths) this.place(path, scope);
  }

  /**
   * Whether a write may go through a link the command made: a link and any other write, in any
   * order (a loop may run the link first), or two link-making commands (a link of a link).
   */
  private throughLinks(): boolean {
    return this.linkCalls > 1 || (this.linkCalls === 1 && this.otherWrites);
  }

  /** Adds one write target; true when it is a file (not empty, a device, or unknown). */
  private place(path: Arg, scope: Scope): boolean {
    if (path === "") return false;
    const placed = path === null ? null : placeTarget(path, scope);
    if (placed === null) this.markOpaque();
    else if (!isSpecialFile(placed)) this.writes.add(placed);
    return placed !== null && !isSpecialFile(placed);
  }

  addPatch(text: string, scope: Scope): void {
    // A loop body is walked more than once: the same patch is still one patch.
    if (!this.patches.includes(text)) this.patches.push(text);
    for (const path of writePaths(parsePatchTargets(text))) this.addTarget(path, scope);
  }

  addGitCall(call: GitCall): void {
    this.gitCalls.set(JSON.stringify([call.cwd, call.args]), call);
  }

  setGitAlias(name: string, value: Arg): void {
    this.gitAliases.set(name.toLowerCase(), value);
  }

  gitAliasArgs(): string[] {
    return [...this.gitAliases]
      .filter((entry): entry is [string, string] => entry[1] !== null)
      .flatMap(([name, value]) => ["-c", `alias.${name}=${value}`]);
  }
}

/** A device or a descriptor's name; /dev/shm is a tmpfs of ordinary files (a repository can live there). */
function isSpecialFile(path: string): boolean {
  if (path === "/dev/shm" || path.startsWith("/dev/shm/")) return false;
  return path.startsWith("/dev/") || path.startsWith("/proc/self/fd/");
}
