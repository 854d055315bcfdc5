/**
 * Whether the kernel will jail here: a trial jail makes a temp file read-only and tries to write
 * it (src/core/jail/probe.ts says what the answer means). Used by `tandem doctor`.
 */
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { jailArgv } from "../core/jail/argv.js";
import { type ProbeFacts, type ProbeVerdict, probeVerdict } from "../core/jail/probe.js";
import type { Printer } from "../core/printed.js";

const TOOLS = ["unshare", "mount", "setpriv", "mkfifo", "nsenter", "tail"] as const;

function onPath(name: string, path: string): boolean {
  return path.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function readSetting(file: string): string | null {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

/** Runs the trial: exit 0 from inside means the write failed and the bytes stayed. */
function trial(): ProbeFacts["trial"] {
  const dir = mkdtempSync(join(tmpdir(), "tandem-jail-probe-"));
  const file = join(dir, "probe.txt");
  try {
    writeFileSync(file, "kept\n");
    const { file: exe, args } = jailArgv(
      [file],
      ["sh", "-c", 'if (echo x > "$0") 2>/dev/null; then exit 3; fi', file],
    );
    const r = process
      .getBuiltinModule("node:child_process")
      .spawnSync(exe, args, { encoding: "utf8", timeout: 10_000 });
    const kept = readFileSync(file, "utf8") === "kept\n";
    return { code: r.status, stderr: r.stderr ?? r.error?.message ?? "", readOnly: r.status === 0 && kept };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the kernel and PATH say here, with a trial jail (one spawn): the verdict's facts. */
export function probeFacts(env: Readonly<Record<string, string | undefined>>): ProbeFacts {
  const linux = process.platform === "linux";
  const tools: readonly string[] = linux ? TOOLS : process.platform === "darwin" ? ["sandbox-exec"] : [];
  const missing = tools.filter((t) => !onPath(t, env.PATH ?? ""));
  return {
    platform: process.platform,
    missing,
    trial: linux && missing.length === 0 ? trial() : null,
    sysctl: {
      maxUserNs: readSetting("/proc/sys/user/max_user_namespaces"),
      unprivClone: readSetting("/proc/sys/kernel/unprivileged_userns_clone"),
      apparmorRestrict: readSetting("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
    },
  };
}

/** Whether the kernel jails here; `p` spells the fix's commands for its reader. */
export function probeJail(env: Readonly<Record<string, string | undefined>>, p: Printer): ProbeVerdict {
  return probeVerdict(probeFacts(env), p);
}
