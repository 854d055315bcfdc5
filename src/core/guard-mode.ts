/** `kernel`: agents' shell commands run in the jail; `reader`: only the hooks' reading guards them (issue 36). */
export type GuardMode = "reader" | "kernel";
