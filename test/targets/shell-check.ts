/** Table-test helpers for the shell reader: one command in, what it found checked field by field. */
import { expect } from "vitest";
import type { GitCall } from "../../src/core/git/call.js";
import { extractShellTargets, type ShellTargetOptions, type ShellTargets } from "../../src/targets/shell.js";

export const HOME = "/home/user";

/** What a command should give; fields left out are expected empty (`opaque`, `tandemHook` false). */
export interface ShellCase {
  command: string;
  writes?: string[];
  opaque?: boolean;
  gitCalls?: GitCall[];
  tandemHook?: boolean;
}

export async function expectShell(c: ShellCase, options: ShellTargetOptions = {}): Promise<ShellTargets> {
  const found = await extractShellTargets(c.command, { home: HOME, ...options });
  expect(found.error).toBeUndefined();
  expect({
    writes: found.writes,
    opaque: found.opaque,
    gitCalls: found.gitCalls,
    tandemHook: found.tandemHook,
  }).toEqual({
    writes: c.writes ?? [],
    opaque: c.opaque ?? false,
    gitCalls: c.gitCalls ?? [],
    tandemHook: c.tandemHook ?? false,
  });
  return found;
}

/** A git call run in the tool call's own directory. */
export function here(...args: string[]): GitCall {
  return { cwd: "", args };
}

/** expectShell as a test body (vitest wants it to resolve to nothing). */
export async function check(c: ShellCase): Promise<void> {
  await expectShell(c);
}
