/** Write targets of a shell command: see shell/index.ts. */
export { extractShellTargets, type ShellTargetOptions, type ShellTargets } from "./shell/index.js";
