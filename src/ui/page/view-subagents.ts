import { spanned } from "../../core/printed.js";
import type { SubDetail, UiSubagent } from "../../core/ui/protocol.js";
import type { Board, Change } from "./app.js";
import { getJson, h, onActivate, replace } from "./dom.js";
import { renderDiff } from "./lazy-diff.js";

/** Sub-agents and, for the one chosen, what was captured as side-by-side diffs, and where it went. */
export class SubagentsView {
  readonly el = h("section", { class: "view", "aria-label": "Sub-agents" });
  private readonly list = h("div");
  private readonly detail = h("div", { class: "sub-detail" });
  private chosen: string | null = null;

  constructor(private readonly board: Board) {
    this.el.append(this.list, this.detail);
  }

  update(c: Change): void {
    if (!c.reset && !c.parts.has("subagents")) return;
    this.render();
    if (this.chosen) void this.load(this.chosen);
  }

  shown(): void {
    if (this.chosen) void this.load(this.chosen);
  }

  private choose(id: string): void {
    this.chosen = id;
    this.render();
    void this.load(id);
  }

  render(): void {
    const s = this.board.state;
    if (!s) return;
    if (s.subagents.length === 0) {
      replace(
        this.list,
        h(
          "p",
          { class: "empty" },
          `No sub-agents: ${spanned({ reader: "person", launcher: s.launcher }, "sub", "run", "--", { slot: "COMMAND" })} starts one.`,
        ),
      );
      return;
    }
    const head = ["name", "parent", "client", "state", "captured", "applied"];
    replace(
      this.list,
      h(
        "table",
        { class: "grid" },
        h("thead", {}, h("tr", {}, ...head.map((t) => h("th", {}, t)))),
        h("tbody", {}, ...s.subagents.map((x) => this.row(x))),
      ),
    );
  }

  private row(x: UiSubagent): HTMLElement {
    const tr = h(
      "tr",
      {
        class: `row${x.problem ? " problem" : ""}${x.id === this.chosen ? " chosen" : ""}`,
        "data-sub": x.name,
      },
      h("td", {}, x.name),
      h("td", {}, x.parent ?? "—"),
      h("td", {}, x.client),
      h("td", {}, x.state),
      h("td", {}, x.capture),
      h("td", {}, x.apply),
    );
    if (x.id) onActivate(tr, () => this.choose(x.id!));
    return tr;
  }

  private async load(id: string): Promise<void> {
    const d = await getJson<SubDetail>(`/api/sub?id=${encodeURIComponent(id)}`);
    if (this.chosen !== id) return;
    const key = JSON.stringify([d.capture, d.applies, d.state]);
    if (key === this.detail.dataset.key) return;
    this.detail.dataset.key = key;
    replace(this.detail, ...(await detailNodes(d)));
  }
}

function copyButton(text: string): HTMLElement {
  const b = h("button", { type: "button", class: "copy" }, "Copy");
  b.addEventListener("click", () => {
    void navigator.clipboard?.writeText(text).then(
      () => {
        b.textContent = "Copied";
      },
      () => {
        b.textContent = "Select and copy by hand";
      },
    );
  });
  return b;
}

async function detailNodes(d: SubDetail): Promise<Node[]> {
  const applies = d.applies.length
    ? h("ul", {}, ...d.applies.map((a) => h("li", {}, `${a.target}: ${a.stage} — ${a.detail}`)))
    : h("p", { class: "muted" }, "Not applied anywhere yet.");
  const diffs: Node[] = [];
  for (const c of d.commits) {
    const box = h("div", { class: "diff" });
    await renderDiff(box, c.diff);
    diffs.push(h("h3", {}, `Commit: ${c.subject || "(no subject)"}`), box);
  }
  if (d.patch) {
    const box = h("div", { class: "diff", "data-patch": "1" });
    await renderDiff(box, d.patch);
    diffs.push(h("h3", {}, "Uncommitted changes"), box);
  }
  return [
    h("h2", {}, `${d.name} `, h("span", { class: "muted" }, `${d.id} on ${d.branch}`)),
    h("p", {}, `State: ${d.state} (${d.exit}). Captured: ${d.capture ?? "nothing yet"}.`),
    h("p", { class: "muted" }, `Worktree: ${d.worktree}`),
    h("h3", {}, "Applied"),
    applies,
    h("p", { class: "command" }, h("code", {}, d.applyCommand), " ", copyButton(d.applyCommand)),
    h("p", { class: "muted" }, "Run it in the worktree to apply into (or add --target DIR)."),
    ...(diffs.length ? diffs : [h("p", { class: "muted" }, "Nothing captured to show.")]),
  ];
}
