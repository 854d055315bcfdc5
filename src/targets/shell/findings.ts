/** What the walk of one command has found so far: write targets, patches, git calls, forged hooks. */
import type { GitCall } from "../../core/git-call.js";
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
  private readonly protectedRefs = new Set<string>();

  result(): ShellTargets {
    return {
      writes: [...this.writes],
      patches: [...this.patches],
      gitCalls: [...this.gitCalls.values()],
      tandemHook: this.tandemHook,
      wiringCommands: [...this.wiringCommands],
      protectedRefs: [...this.protectedRefs],
      opaque: this.opaque,
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
    if (path === "") return;
    const placed = path === null ? null : placeTarget(path, scope);
    if (placed === null) this.markOpaque();
    else if (!isSpecialFile(placed)) this.writes.add(placed);
  }

  addPatch(text: string, scope: Scope): void {
    // A loop body is walked more than once: the same patch is still one patch.
    if (!this.patches.includes(text)) this.patches.push(text);
    for (const path of writePaths(parsePatchTargets(text))) this.addTarget(path, scope);
  }

  addGitCall(call: GitCall): void {
    this.gitCalls.set(JSON.stringify([call.cwd, call.args]), call);
  }
}

function isSpecialFile(path: string): boolean {
  return path.startsWith("/dev/") || path.startsWith("/proc/self/fd/");
}
