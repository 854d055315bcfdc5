/**
 * Which guard stands between a session's commands and its peers' files (issue 36 §4): `kernel`
 * when its agent itself runs in a jail (`tandem run`), or when the repository asks for the kernel
 * guard and the client's pre-tool hook sends each command into one; `reader` otherwise. Where the
 * kernel will not jail, a kernel-guarded client's commands are refused, not run unguarded, so the
 * kernel guard is still the one in force. Pure.
 */
import type { GuardMode } from "./rewrite.js";

export interface GuardFacts {
  /** The config's `guard`. */
  configured: GuardMode;
  /** The client's pre-tool answer can replace the command (its spec's `commandRewrite.used`). */
  rewrites: boolean;
  /** The session's agent process runs in another user namespace than Tandem: a jail. */
  jailed: boolean;
}

export function sessionGuard(f: GuardFacts): GuardMode {
  if (f.jailed) return "kernel";
  return f.configured === "kernel" && f.rewrites ? "kernel" : "reader";
}
