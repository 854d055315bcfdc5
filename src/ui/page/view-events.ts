import { type EventFilter, eventMatches, parseKind } from "../../core/ui/event-filter.js";
import type { EventsPage, UiEvent } from "../../core/ui/protocol.js";
import type { Board, Change } from "./app.js";
import { clock, getJson, h } from "./dom.js";

const ROW = 24;
const PAGE = 200;
const SPARE = 15;

/**
 * The whole event history, newest first, virtualised: only the rows in sight are in the DOM, and
 * they are fetched a page at a time below an anchor seq; events recorded since arrive by the stream
 * and stack above it. Changing the filter moves the anchor to now and starts over.
 */
export class EventsView {
  readonly el = h("section", { class: "view events", "aria-label": "Events" });
  private filter: EventFilter = { session: null, kind: null };
  private anchor = 0;
  private head: UiEvent[] = [];
  private total = 0;
  private pages = new Map<number, UiEvent[] | "loading">();
  private generation = 0;
  private started = false;
  private readonly scroller = h("div", { class: "scroller", tabindex: 0, "aria-label": "event list" });
  private readonly spacer = h("div", { class: "spacer" });
  private readonly rows = h("div", { class: "rows" });
  private readonly count = h("span", { class: "muted" });
  readonly kindBox = h("input", {
    type: "search",
    placeholder: "kind: claim.acquired or claim.*  (/)",
    "aria-label": "filter by kind",
    list: "kinds",
  });
  private readonly sessionBox = h("select", { "aria-label": "filter by session" });

  constructor(private readonly board: Board) {
    this.spacer.append(this.rows);
    this.scroller.append(this.spacer);
    this.scroller.addEventListener("scroll", () => requestAnimationFrame(() => this.draw()));
    this.kindBox.addEventListener("input", () => this.setFilter());
    this.sessionBox.addEventListener("change", () => this.setFilter());
    const bar = h("div", { class: "filters" }, this.sessionBox, this.kindBox, this.count);
    this.el.append(bar, this.scroller);
  }

  private setFilter(): void {
    this.filter = { session: this.sessionBox.value || null, kind: parseKind(this.kindBox.value) };
    this.restart();
  }

  /** Anchor at the newest event and drop everything fetched. */
  restart(): void {
    this.started = true;
    this.anchor = this.board.state?.seq ?? 0;
    this.head = [];
    this.pages.clear();
    this.total = 0;
    this.generation++;
    this.scroller.scrollTop = 0;
    void this.fetchPage(0);
  }

  update(c: Change): void {
    if (c.reset) {
      this.restart();
      return;
    }
    if (c.parts.has("sessions")) this.sessionOptions();
    const fresh = c.events.filter((e) => e.seq > this.anchor && eventMatches(this.filter, e)).reverse();
    if (fresh.length === 0) return;
    this.head = [...fresh, ...this.head];
    // Keep the rows in view still when the reader has scrolled down.
    if (this.scroller.scrollTop > 0) this.scroller.scrollTop += fresh.length * ROW;
    this.draw();
  }

  private sessionOptions(): void {
    const s = this.board.state;
    if (!s) return;
    const keep = this.sessionBox.value;
    this.sessionBox.replaceChildren(
      h("option", { value: "" }, "all sessions"),
      ...s.sessions.map((x) => h("option", { value: x.id, selected: x.id === keep }, x.name)),
    );
  }

  private async fetchPage(n: number): Promise<void> {
    if (this.pages.has(n)) return;
    this.pages.set(n, "loading");
    const gen = this.generation;
    const q = new URLSearchParams({
      anchor: String(this.anchor),
      offset: String(n * PAGE),
      limit: String(PAGE),
    });
    if (this.filter.session) q.set("session", this.filter.session);
    if (this.filter.kind) q.set("kind", this.filter.kind);
    const page = await getJson<EventsPage>(`/api/events?${q}`);
    if (gen !== this.generation) return;
    this.pages.set(n, page.rows);
    this.total = page.total;
    this.draw();
  }

  private rowAt(i: number): UiEvent | null {
    if (i < this.head.length) return this.head[i]!;
    const k = i - this.head.length;
    const page = this.pages.get(Math.floor(k / PAGE));
    if (page === undefined) void this.fetchPage(Math.floor(k / PAGE));
    return Array.isArray(page) ? (page[k % PAGE] ?? null) : null;
  }

  draw(): void {
    const n = this.head.length + this.total;
    this.count.textContent = `${n.toLocaleString()} event${n === 1 ? "" : "s"}`;
    this.spacer.style.height = `${n * ROW}px`;
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / ROW) - SPARE);
    const last = Math.min(n, Math.ceil((this.scroller.scrollTop + this.scroller.clientHeight) / ROW) + SPARE);
    const out: HTMLElement[] = [];
    for (let i = first; i < last; i++) out.push(this.line(this.rowAt(i), i));
    this.rows.style.transform = `translateY(${first * ROW}px)`;
    this.rows.replaceChildren(...out);
  }

  private line(e: UiEvent | null, i: number): HTMLElement {
    if (!e) return h("div", { class: "ev muted", "aria-rowindex": i + 1 }, "…");
    return h(
      "div",
      { class: `ev tone-${e.tone}`, "data-seq": e.seq, "aria-rowindex": i + 1 },
      h("span", { class: "seq" }, String(e.seq)),
      h("time", {}, clock(e.ts)),
      h("span", { class: "who" }, e.who),
      h("span", { class: "kind" }, e.kind),
      h("span", { class: "detail" }, e.detail),
    );
  }

  shown(): void {
    this.sessionOptions();
    if (!this.started) this.restart();
    else this.draw();
  }
}
