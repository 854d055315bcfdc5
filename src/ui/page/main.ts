/** The board's page: one stream from the server, five views, keys 1–5 to switch and / to filter. */
import type { DeltaMessage, StateMessage } from "../../core/ui/protocol.js";
import { Board, type Change, type ViewId } from "./app.js";
import { h, replace } from "./dom.js";
import { ClaimsView } from "./view-claims.js";
import { EventsView } from "./view-events.js";
import { ProblemsView } from "./view-problems.js";
import { SessionsView } from "./view-sessions.js";
import { SubagentsView } from "./view-subagents.js";
import "./style.css";

interface View {
  readonly el: HTMLElement;
  update(c: Change): void;
  render?(): void;
  shown?(): void;
}

const board = new Board();
const events = new EventsView(board);
const views: Record<ViewId, View> = {
  sessions: new SessionsView(board),
  claims: new ClaimsView(board),
  events,
  subagents: new SubagentsView(board),
  problems: new ProblemsView(),
};
const TITLES: Record<ViewId, string> = {
  sessions: "Sessions",
  claims: "Claims",
  events: "Events",
  subagents: "Sub-agents",
  problems: "Problems",
};
const ORDER = Object.keys(TITLES) as ViewId[];
let current: ViewId = (ORDER as string[]).includes(location.hash.slice(1))
  ? (location.hash.slice(1) as ViewId)
  : "sessions";
const status = h("span", { class: "conn", role: "status" }, "connecting…");
const root = h("span", { class: "root" });
const tabs = ORDER.map((id, i) =>
  h(
    "button",
    { type: "button", role: "tab", "data-view": id, onclick: () => show(id) },
    `${i + 1} ${TITLES[id]}`,
  ),
);
const main = h("main");

function show(id: ViewId): void {
  current = id;
  history.replaceState(null, "", `#${id}`);
  for (const t of tabs) t.setAttribute("aria-selected", String(t.dataset.view === id));
  replace(main, views[id].el);
  views[id].render?.();
  views[id].shown?.();
}

function onKey(e: KeyboardEvent): void {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  if (e.key === "Escape" && typing) {
    (e.target as HTMLElement).blur();
    return;
  }
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const n = Number(e.key);
  if (n >= 1 && n <= ORDER.length) show(ORDER[n - 1]!);
  else if (e.key === "/") {
    e.preventDefault();
    if (current !== "events") show("events");
    events.kindBox.focus();
  }
}

/** Suggestions for the kind box; any kind or `family.*` may be typed. */
const KINDS = [
  "claim.*",
  "claim.acquired",
  "claim.denied",
  "claim.released",
  "session.*",
  "tool.requested",
  "turn.stopped",
  "status.checked",
  "task.set",
  "hook.error",
  "subagent.*",
  "capture.recorded",
  "apply.*",
];

let painted = false;

function onState(s: StateMessage): void {
  if (!painted) performance.mark("tandem:state-received");
  board.applyState(s);
  if (painted) return;
  root.textContent = s.root;
  painted = true;
  labelTabs();
  show(current);
  if (current !== "events") events.restart();
  document.getElementById("app")?.removeAttribute("aria-busy");
  // The bench and the browser tests read this: navigation start → first view drawn with data.
  performance.mark("tandem:first-view");
  document.body.dataset.ready = "1";
}

function connect(): void {
  const source = new EventSource("/api/stream");
  source.addEventListener("state", (m) => onState(JSON.parse((m as MessageEvent).data) as StateMessage));
  source.addEventListener("delta", (m) =>
    board.applyDelta(JSON.parse((m as MessageEvent).data) as DeltaMessage),
  );
  source.onopen = () => {
    status.textContent = "live";
    status.className = "conn live";
  };
  source.onerror = () => {
    status.textContent = "reconnecting…";
    status.className = "conn down";
  };
}

function boot(): void {
  // The token has done its work (the cookie now carries it): keep it out of history and screenshots.
  if (location.search.includes("token=")) history.replaceState(null, "", `/${location.hash}`);
  board.listen((c) => {
    if (!painted) return;
    // Hidden tables redraw when shown; the event list keeps up always (it holds the live rows).
    views[current].update(c);
    if (current !== "events") events.update(c);
    labelTabs();
  });
  const app = document.getElementById("app")!;
  replace(
    app,
    h("header", {}, h("strong", {}, "Tandem"), root, h("nav", { role: "tablist" }, ...tabs), status),
    main,
    h("datalist", { id: "kinds" }, ...KINDS.map((k) => h("option", { value: k }))),
  );
  document.addEventListener("keydown", onKey);
  connect();
}

function labelTabs(): void {
  for (const [i, id] of ORDER.entries()) tabs[i]!.textContent = `${i + 1} ${TITLES[id]}${count(id)}`;
}

function count(id: ViewId): string {
  const s = board.state;
  if (!s) return "";
  if (id === "sessions") return ` (${s.sessions.filter((x) => x.state === "live").length})`;
  // Left work is counted apart: those files have no live claim, yet they need a person's eye.
  if (id === "claims")
    return s.left.length ? ` (${s.claims.length} · ${s.left.length} left)` : ` (${s.claims.length})`;
  if (id === "subagents") return ` (${s.subagents.length})`;
  return "";
}

boot();
