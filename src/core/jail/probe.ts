/**
 * Whether the kernel will jail here, from what a trial jail answered: a sentence that says what
 * is missing and what to do (docs/decisions/0054). Pure: the trial runs in src/jail/probe.ts.
 */
import { type Printer, spanned } from "../printed.js";

export interface ProbeFacts {
  platform: string;
  /** Tools the jail runs, by name, that are not on PATH. */
  missing: readonly string[];
  /** The trial jail: its exit code and stderr, and whether the write inside it failed read-only. */
  trial: { code: number | null; stderr: string; readOnly: boolean } | null;
  /** `/proc/sys/...` settings that can forbid user namespaces, as read (null: absent). */
  sysctl: { maxUserNs: string | null; unprivClone: string | null; apparmorRestrict: string | null };
}

/**
 * `seatbelt`: macOS, where a sandbox profile guards only what does not move (decision 0079's
 * addendum, docs/safety-net.md); peers' files stay with the reader.
 */
export type ProbeVerdict = { ok: true; seatbelt?: true } | { ok: false; why: string; fix: string };

/** Why the trial failed, told from the settings that forbid it, else from its stderr. */
function trialFailure(f: ProbeFacts, p: Printer): ProbeVerdict {
  const { sysctl } = f;
  if (sysctl.maxUserNs === "0")
    return {
      ok: false,
      why: "user namespaces are switched off (user.max_user_namespaces = 0)",
      fix: "as root: `sysctl -w user.max_user_namespaces=15000`",
    };
  if (sysctl.unprivClone === "0")
    return {
      ok: false,
      why: "unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)",
      fix: "as root: `sysctl -w kernel.unprivileged_userns_clone=1`",
    };
  if (sysctl.apparmorRestrict === "1")
    return {
      ok: false,
      why: "AppArmor forbids unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1)",
      fix: "as root: `sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`, or an AppArmor profile that allows `userns` for unshare",
    };
  const said = f.trial?.stderr.trim().split("\n")[0] ?? "";
  if (f.trial && f.trial.code === 0 && !f.trial.readOnly)
    return {
      ok: false,
      why: "a read-only bind mount did not refuse a write here",
      fix: `run ${spanned(p, "doctor")} outside any container or sandbox that remaps mounts`,
    };
  return {
    ok: false,
    why: `a trial jail failed${said ? `: ${said}` : ""} (a container or sandbox may forbid user or mount namespaces)`,
    fix: 'run agents where unprivileged user namespaces are allowed (`unshare -Urm true` must succeed), or set `guard: "reader"` once it exists',
  };
}

/** `p` spells the commands a fix names, for whoever reads the verdict. */
export function probeVerdict(f: ProbeFacts, p: Printer): ProbeVerdict {
  if (f.platform === "darwin")
    return f.missing.length > 0
      ? {
          ok: false,
          why: `${f.missing.join(", ")} not found on PATH`,
          fix: "macOS ships sandbox-exec in /usr/bin: put /usr/bin on the agents' PATH",
        }
      : { ok: true, seatbelt: true };
  if (f.platform !== "linux")
    return {
      ok: false,
      why: `the kernel jail needs Linux or macOS; this is ${f.platform}`,
      fix: "agents here are guarded by the hooks' reader only (docs/safety-net.md)",
    };
  if (f.missing.length > 0)
    return {
      ok: false,
      why: `${f.missing.join(", ")} not found on PATH`,
      fix: "install util-linux and coreutils (`apt-get install util-linux coreutils`: unshare, mount, setpriv, nsenter, mkfifo, tail)",
    };
  if (f.trial && f.trial.code === 0 && f.trial.readOnly) return { ok: true };
  return trialFailure(f, p);
}
