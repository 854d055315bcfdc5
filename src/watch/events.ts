import { stopEventText, stopShown } from "../core/ritual/stop-shown.js";
import type { StoredEvent } from "../store/ledger/projections.js";

/** How an event reads at a glance; the renderer maps it to a colour. */
export type Tone = "good" | "bad" | "warn" | "info" | "plain";

type Data = Record<string, unknown>;
type Describe = (d: Data, name: (id: unknown) => string, rel: (p: unknown) => string) => string;

const str = (v: unknown): string => (typeof v === "string" ? v : v == null ? "" : JSON.stringify(v));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function denied(d: Data, name: (id: unknown) => string, rel: (p: unknown) => string): string {
  return list(d.refused)
    .map((r) => {
      const x = r as Data;
      if (!x.holder) return `${rel(x.path)} (${str(x.reason)})`;
      return `${rel(x.path)} (${x.reason === "left-work" ? "left" : "held"} by ${name(x.holder)})`;
    })
    .join(", ");
}

/** One short phrase per kind; unknown kinds fall back to their JSON, so nothing new is hidden. */
const DESCRIBE: Record<string, Describe> = {
  "session.started": (d) => `${str(d.client)} ${str(d.kind)}${d.source ? ` (${str(d.source)})` : ""}`,
  "session.ended": (d) => str(d.reason),
  "session.attached": (d) => `UI process ${str(d.uiPid)}`,
  "session.resumed": () => "resumed after it ended",
  "activity.set": (d) => str(d.activity),
  "prompt.submitted": (d) => (d.remediation ? `(tandem remediation) ${str(d.text)}` : str(d.text)),
  "tool.requested": (d, _n, rel) => `${str(d.tool)} ${list(d.targets).map(rel).join(" ")}`.trim(),
  "tool.completed": (d) => str(d.tool),
  "files.touched": (d, _n, rel) => `${list(d.paths).map(rel).join(" ")} via ${str(d.via)}`,
  "claim.acquired": (d, _n, rel) => rel(d.path),
  "claim.released": (d, name, rel) =>
    `${rel(d.path)} (${str(d.reason)}${d.holder ? ` from ${name(d.holder)}` : ""})`,
  "claim.denied": denied,
  "task.set": (d) => str(d.text),
  "status.checked": (d) => (d.end_turn ? "end-turn check passed" : "status shown"),
  "turn.stopped": (d) => stopEventText(d),
  "hook.error": (d) => `${str(d.client)} ${str(d.event)}: ${str(d.message)}`,
  "jail.refused": (d, name) =>
    `from inside the jail: ${str(d.command)}${d.claimed ? ` named ${name(d.claimed)}` : ""}; refused`,
  "jail.write.refused": (d) =>
    `the kernel refused ${list(d.paths)
      .map((p) => `${str((p as Data).path)} (${str((p as Data).why)})`)
      .join(", ")}`,
  "identity.refused": (d, name) => `${str(d.command)} named ${name(d.claimed)} (${str(d.via)}); refused`,
  "commit.guarded": (d, name) =>
    `${str(d.outcome)}${d.bypassRefused ? " (TANDEM_BYPASS ignored)" : ""} ${list(d.paths)
      .map((p) => `${str((p as Data).path)}@${name((p as Data).holder)}`)
      .join(" ")}`.trim(),
  "subagent.created": (d) => `${str(d.name ?? d.id)} (${str(d.client)}) on ${str(d.branch)}`,
  "subagent.spawned": (d) => `${str(d.id)} pid ${str(d.pid)}`,
  "subagent.exited": (d) => `${str(d.id)} ${str(d.reason)}${d.exitCode != null ? ` ${str(d.exitCode)}` : ""}`,
  "capture.recorded": (d) =>
    `${str(d.id)} ${d.ok ? "" : "FAILED "}${str(d.commitCount)} commit(s), ${str(d.patchBytes)} B patch`,
  "apply.staged": (d, _n, rel) => `${str(d.id)} -> ${rel(d.target)}: ${str(d.stage)}`,
  "apply.completed": (d, _n, rel) => `${str(d.id)} -> ${rel(d.target)}`,
  "apply.failed": (d) => `${str(d.id)}: ${str(d.message)}`,
  "apply.blocked": (d) => `${str(d.id)}: ${str(d.message)}`,
  "apply.acknowledged": (d) => `${str(d.id)} ${str(d.what)}: ${str(d.detail)}`,
  "subagent.removed": (d) => `${str(d.id)} ${str(d.worktree)}`,
  "subagent.discarded": (d) => `${str(d.id)} ${str(d.worktree)}`,
  "session.compacted": (d) => {
    const s = (d.session ?? {}) as Data;
    const day = (ts: unknown) => (typeof ts === "number" ? new Date(ts).toISOString().slice(0, 10) : "?");
    return `${str(s.name)} (${str(s.client)}): ${str(d.events)} events ${day(d.firstTs)}..${day(d.lastTs)}, ${list(d.claimHistory).length} file(s) claimed${s.task ? `, task: ${str(s.task)}` : ""}`;
  },
  "work.settled": (d, name, rel) =>
    `${list(d.paths).map(rel).join(" ")} of ${name(d.owner)}: ${d.reason === "clean" ? "clean now" : "discarded"}`,
  "work.expired": (d) => `${list(d.versions).length} preserved version(s)`,
  "subagents.expired": (d) => list(d.ids).map(str).join(" "),
  "land.started": (d) => `${str(d.branch)} ${str(d.local).slice(0, 10)} onto ${str(d.upstream).slice(0, 10)}`,
  "land.pushed": (d) =>
    d.outcome === "pushed"
      ? `${str(d.branch)}: ${str(d.commits)} commit(s)${d.rebased ? " rebased and" : ""} pushed${
          d.rejected ? `, ${list(d.rejected).length} turned away by the check` : ""
        }`
      : `${str(d.branch)}: ${str(d.outcome)}`,
  "land.refused": (d) =>
    d.reason === "held"
      ? `${str(d.branch)}: ${list(d.paths)
          .map(
            (p) =>
              `${str((p as Data).path)} (held by ${
                list((p as Data).holders)
                  .map(str)
                  .join(", ") || "no session"
              })`,
          )
          .join(", ")}`
      : d.reason === "check"
        ? `${str(d.branch)}: land.check failed (${str(d.message)}) on ${list(d.commits).length} commit(s); nothing pushed`
        : `${str(d.branch)}: ${str(d.message)}`,
  "land.conflicted": (d) =>
    `${str(d.branch)}: ${str(d.commit).slice(0, 10)} conflicts on ${list(d.paths).map(str).join(" ")}`,
  "wiring.restored": (d, name, rel) =>
    `${rel(d.file)} put back (${list(d.changes).map(str).join("; ")}) by ${
      d.via === "server" ? "the server" : `${name(d.foundBy)}'s hook`
    }${d.lastCommandBy ? `; last tool call before it: ${name(d.lastCommandBy)}` : ""}`,
  "wiring.noticed": () => "told that the wiring was put back",
  "store.gc": (d) =>
    `${str(d.sessions)} session(s), ${str(d.events)} event(s), ${str(d.blobs)} blob(s) freed`,
};

const TONES: Record<string, Tone> = {
  "claim.acquired": "good",
  "claim.released": "info",
  "claim.denied": "bad",
  "hook.error": "bad",
  "identity.refused": "bad",
  "jail.refused": "bad",
  "jail.write.refused": "warn",
  "apply.failed": "bad",
  "apply.blocked": "warn",
  "apply.completed": "good",
  "subagent.discarded": "warn",
  "session.ended": "info",
  "session.started": "info",
  "land.pushed": "good",
  "land.refused": "bad",
  "land.conflicted": "bad",
  "wiring.restored": "warn",
};

export function eventTone(ev: { kind: string; data: unknown }): Tone {
  const d = (ev.data ?? {}) as Data;
  if (ev.kind === "turn.stopped") return stopShown(d) === "blocked" ? "warn" : "plain";
  if (ev.kind === "commit.guarded") return d.outcome === "refused" ? "bad" : "plain";
  if (ev.kind === "capture.recorded") return d.ok ? "good" : "bad";
  return TONES[ev.kind] ?? "plain";
}

/** The event's payload in a few words: session ids become names and paths lose the root prefix. */
export function eventDetail(ev: StoredEvent, names: ReadonlyMap<string, string>, root: string): string {
  const name = (id: unknown) => names.get(str(id)) ?? str(id);
  const rel = (p: unknown) => {
    const s = str(p);
    if (s === root) return ".";
    return s.startsWith(`${root}/`) ? s.slice(root.length + 1) : s;
  };
  const data = (ev.data ?? {}) as Data;
  const describe = DESCRIBE[ev.kind];
  return describe ? describe(data, name, rel) : JSON.stringify(ev.data);
}
