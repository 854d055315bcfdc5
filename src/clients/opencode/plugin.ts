import { launcherWords } from "../launcher-words.js";
import { ownedMarkerLine } from "../owned-file.js";
import type { WiredEvent } from "../types.js";

/** opencode loads every `.opencode/plugins/*.{js,ts}` of the project (docs/clients.md §16.1). */
export const PLUGIN_FILE = ".opencode/plugins/tandem.js";

/** The CLI name of the wired event for a native one; the plugin's calls are spelled from these. */
function cli(events: readonly WiredEvent[], native: string): string {
  const e = events.find((x) => x.native === native);
  if (!e) throw new Error(`opencode plugin: no wired event ${native}`);
  return e.cli;
}

/**
 * The plugin's text. Kept small and dependency-free (opencode runs it in its own Bun runtime): one
 * process per call, fail closed for the write gate (a hook that cannot run refuses the write),
 * fail open for everything that only records. Sub-agents (the task tool) work in child sessions;
 * every call names the top session, so their writes are the parent's claims.
 */
export function pluginText(launcher: string, events: readonly WiredEvent[], person: string): string {
  const marks = events.map((e) => ownedMarkerLine("//", `${launcher} hook opencode ${e.cli}`));
  const ev = (native: string) => JSON.stringify(cli(events, native));
  return `${marks.join("\n")}
// Tandem's opencode plugin, written whole by \`${person} init\` (edits are lost on the next init; put
// your own plugins in other files). Each event goes to Tandem as JSON on stdin; a refusal is thrown.
import { spawn } from "node:child_process";

const LAUNCHER = ${JSON.stringify(launcherWords(launcher))};
// How the person starts Tandem here, for the advice a refusal gives.
const DOCTOR = ${JSON.stringify(`${person} doctor`)};
const WRITE_TOOLS = new Set(["write", "edit", "apply_patch", "bash"]);
const TIMEOUT_MS = 60000;

function call(event, payload, cwd) {
  return new Promise((done) => {
    let child;
    try {
      child = spawn(LAUNCHER[0], [...LAUNCHER.slice(1), "hook", "opencode", event], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      return done({ ok: false, why: String(e && e.message ? e.message : e) });
    }
    const out = [];
    const err = [];
    const timer = setTimeout(() => { child.kill("SIGKILL"); done({ ok: false, why: "timed out" }); }, TIMEOUT_MS);
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    child.stdin.on("error", () => {});
    child.on("error", (e) => { clearTimeout(timer); done({ ok: false, why: e.message }); });
    child.on("close", (code) => {
      clearTimeout(timer);
      const text = Buffer.concat(out).toString("utf8").trim();
      if (code !== 0) return done({ ok: false, why: \`exit \${code}: \${Buffer.concat(err).toString("utf8").trim().slice(-400)}\` });
      try {
        done({ ok: true, answer: text ? JSON.parse(text) : {} });
      } catch {
        done({ ok: false, why: \`unreadable answer: \${text.slice(0, 200)}\` });
      }
    });
    child.stdin.end(JSON.stringify(payload));
  });
}

export const TandemPlugin = async ({ client, directory }) => {
  const parents = new Map();
  const started = new Set();
  const context = new Map();
  // A child session (a sub-agent's) works for its parent: Tandem hears of the top one only.
  const top = async (id) => {
    let cur = id;
    for (let hops = 0; hops < 16; hops++) {
      if (!parents.has(cur)) {
        const got = await client.session.get({ path: { id: cur } }).catch(() => null);
        parents.set(cur, got && got.data && got.data.parentID ? got.data.parentID : null);
      }
      const up = parents.get(cur);
      if (!up) return cur;
      cur = up;
    }
    return cur;
  };
  // The TUI draws a refused tool as a bare "← Write f.txt" and shows its error only to the model;
  // a toast puts Tandem's reason on the person's screen. \`opencode run\` has no TUI and ignores it.
  const tell = (message) => {
    try {
      const shown = client.tui?.showToast?.({ body: { title: "Tandem", message, variant: "warning", duration: 20000 } });
      if (shown && typeof shown.catch === "function") shown.catch(() => {});
    } catch {}
  };
  const send = (event, hook, sid, native, extra) =>
    call(event, { hook, session_id: sid, native_session_id: native, directory, ...extra }, directory);
  const keep = (sid, key, r) => {
    if (r.ok && typeof r.answer.context === "string") context.set(sid, { ...context.get(sid), [key]: r.answer.context });
  };
  const start = async (sid, source) => {
    if (started.has(sid)) return;
    started.add(sid);
    keep(sid, "start", await send(${ev("session.created")}, "session.created", sid, sid, { source }));
  };
  return {
    event: async ({ event }) => {
      const p = event.properties || {};
      if (event.type === "session.created" && p.info) {
        parents.set(p.info.id, p.info.parentID || null);
        if (!p.info.parentID) await start(p.info.id, "startup");
      } else if (event.type === "session.idle" && p.sessionID) {
        if ((await top(p.sessionID)) !== p.sessionID) return;
        const r = await send(${ev("session.idle")}, "session.idle", p.sessionID, p.sessionID, { event });
        // The turn is over and cannot be held: the ritual's reminder comes back as the next prompt.
        if (r.ok && typeof r.answer.followUp === "string")
          client.session.promptAsync({ path: { id: p.sessionID }, body: { parts: [{ type: "text", text: r.answer.followUp }] } }).catch(() => {});
      }
    },
    "chat.message": async (input, output) => {
      // A sub-agent's prompt is its parent's tool call, not the person's: it opens no turn.
      const sid = await top(input.sessionID);
      if (sid !== input.sessionID) return;
      await start(sid, "resume");
      keep(sid, "prompt", await send(${ev("chat.message")}, "chat.message", sid, input.sessionID, { input, output }));
    },
    "experimental.chat.system.transform": async (input, output) => {
      if (!input.sessionID) return;
      const c = context.get(await top(input.sessionID));
      if (c) output.system.push(...[c.start, c.prompt].filter(Boolean));
    },
    "tool.execute.before": async (input, output) => {
      if (!WRITE_TOOLS.has(input.tool)) return;
      const sid = await top(input.sessionID);
      await start(sid, "resume");
      const r = await send(${ev("tool.execute.before")}, "tool.execute.before", sid, input.sessionID, { input, output });
      const why = !r.ok
        ? \`Tandem could not check this \${input.tool} call (\${r.why}), so it is refused; ask the person to run \\\`\${DOCTOR}\\\` in \${directory}.\`
        : typeof r.answer.deny === "string" ? r.answer.deny : null;
      if (why === null) return;
      tell(why);
      throw new Error(why);
    },
    "tool.execute.after": async (input, output) => {
      if (!WRITE_TOOLS.has(input.tool)) return;
      const sid = await top(input.sessionID);
      const result = { title: output.title, output: String(output.output || "").slice(0, 4000) };
      const r = await send(${ev("tool.execute.after")}, "tool.execute.after", sid, input.sessionID, { input, output: result });
      if (r.ok && typeof r.answer.context === "string") output.output = \`\${output.output}\\n\\n\${r.answer.context}\`;
    },
    "shell.env": async (input, output) => {
      if (input.sessionID) output.env.OPENCODE_SESSION_ID = await top(input.sessionID);
    },
    dispose: async () => {
      for (const sid of started) await send(${ev("dispose")}, "dispose", sid, sid, { source: "exit" });
    },
  };
};
`;
}
