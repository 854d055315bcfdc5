import { stopShown } from "../../core/ritual/stop-shown.js";
import type { EventsPage, UiEvent } from "../../core/ui/protocol.js";
import { turnText, type UiSession } from "../../core/ui/session-rows.js";
import type { Board, Change } from "./app.js";
import { ago, clock, getJson, h, onActivate, replace } from "./dom.js";
import { holderChip } from "./holder-chip.js";

/** Sessions, one row each; Enter on a row shows that session's recent events beneath it. */
export class SessionsView {
  readonly el = h("section", { class: "view", "aria-label": "Sessions" });
  private open: string | null = null;
  private recent: UiEvent[] = [];

  constructor(private readonly board: Board) {}

  update(c: Change): void {
    if (c.parts.has("sessions") || c.reset) this.render();
    else if (this.open && c.events.some((e) => e.session === this.open)) void this.load(this.open);
  }

  shown(): void {
    if (this.open) void this.load(this.open);
  }

  private async load(id: string): Promise<void> {
    const page = await getJson<EventsPage>(`/api/events?session=${encodeURIComponent(id)}&limit=12`);
    if (this.open !== id) return;
    this.recent = page.rows;
    this.render();
  }

  private toggle(id: string): void {
    this.open = this.open === id ? null : id;
    this.recent = [];
    this.render();
    if (this.open) void this.load(this.open);
  }

  private row(s: UiSession, now: number): HTMLElement[] {
    const tr = h(
      "tr",
      { class: `row state-${s.state}`, "data-session": s.name, "aria-expanded": String(this.open === s.id) },
      h("td", {}, holderChip(s.name)),
      h("td", {}, s.client, s.kind === "subagent" ? " (sub)" : ""),
      h("td", { class: s.guard === "kernel" ? "good" : "" }, s.guard),
      h("td", { class: "task" }, s.task ?? "—"),
      h("td", {}, h("span", { class: `pill ${s.state}` }, s.state)),
      h("td", {}, s.activity),
      h("td", { class: "num" }, String(s.claims)),
      h("td", {}, ago(s.lastSeen, now)),
      h("td", { class: s.turn.stop && stopShown(s.turn.stop) === "blocked" ? "warn" : "" }, turnText(s.turn)),
    );
    onActivate(tr, () => this.toggle(s.id));
    if (this.open !== s.id) return [tr];
    const list = this.recent.length
      ? h("ul", { class: "recent" }, ...this.recent.map((e) => eventLine(e)))
      : h("p", { class: "muted" }, "loading recent events…");
    return [tr, h("tr", { class: "detail" }, h("td", { colspan: 9 }, list))];
  }

  render(): void {
    const s = this.board.state;
    if (!s) return;
    const now = this.board.now();
    if (s.sessions.length === 0) {
      replace(
        this.el,
        h("p", { class: "empty" }, "No sessions yet: they appear with an agent's first hook."),
      );
      return;
    }
    const head = [
      "session",
      "client",
      "guard",
      "task",
      "state",
      "activity",
      "claims",
      "last seen",
      "last turn",
    ];
    replace(
      this.el,
      h(
        "table",
        { class: "grid" },
        h("thead", {}, h("tr", {}, ...head.map((t) => h("th", {}, t)))),
        h("tbody", {}, ...s.sessions.flatMap((x) => this.row(x, now))),
      ),
    );
  }
}

export function eventLine(e: UiEvent): HTMLElement {
  return h(
    "li",
    { class: `tone-${e.tone}` },
    h("time", {}, clock(e.ts)),
    " ",
    h("span", { class: "kind" }, e.kind),
    " ",
    e.detail,
  );
}
