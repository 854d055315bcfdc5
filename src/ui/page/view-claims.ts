import { claimTree, initialCollapsed, type TreeRow, treeRows } from "../../core/ui/claim-tree.js";
import type { UiRemote } from "../../core/ui/protocol.js";
import type { Board, Change } from "./app.js";
import { h, onActivate, replace } from "./dom.js";
import { holderChip } from "./holder-chip.js";
import { leftSection } from "./view-left.js";
import { linesSection } from "./view-lines.js";

/**
 * Left work first (a problem while any exists), then claims as the repository's tree (Enter or a
 * click folds a directory), then files shared by lines with each hunk's author, then other checkouts.
 */
export class ClaimsView {
  readonly el = h("section", { class: "view", "aria-label": "Claims" });
  private collapsed: Set<string> | null = null;

  constructor(private readonly board: Board) {}

  update(c: Change): void {
    const mine = ["claims", "left", "lines", "remote"] as const;
    if (c.reset || mine.some((p) => c.parts.has(p))) this.render();
  }

  private toggle(path: string): void {
    const set = this.collapsed!;
    if (set.has(path)) set.delete(path);
    else set.add(path);
    this.render(path);
  }

  private row(r: TreeRow): HTMLElement {
    const pad = `padding-left: ${r.depth * 1.25 + 0.5}rem`;
    if (r.kind === "file")
      return h(
        "div",
        { class: `tree-file state-${r.state}`, style: pad, "data-path": r.path },
        h("span", { class: "name" }, r.name),
        holderChip(r.holder),
        r.state === "live" ? null : h("span", { class: `pill ${r.state}` }, r.state),
      );
    const el = h(
      "div",
      { class: "tree-dir", style: pad, "data-path": r.path, role: "button", "aria-expanded": String(r.open) },
      h("span", { class: "twisty" }, r.open ? "▾" : "▸"),
      h("span", { class: "name" }, `${r.name}/`),
      h("span", { class: "muted" }, ` ${r.count} claim${r.count === 1 ? "" : "s"}`),
      ...r.holders.slice(0, 4).map(holderChip),
      r.holders.length > 4 ? h("span", { class: "muted" }, ` +${r.holders.length - 4}`) : null,
    );
    onActivate(el, () => this.toggle(r.path));
    return el;
  }

  render(focusPath?: string): void {
    const s = this.board.state;
    if (!s) return;
    const tree = claimTree(s.claims);
    this.collapsed ??= initialCollapsed(tree);
    const rows = treeRows(tree, this.collapsed);
    const list =
      rows.length === 0
        ? h("p", { class: "empty" }, "No file is claimed.")
        : h("div", { class: "tree", role: "tree" }, ...rows.map((r) => this.row(r)));
    replace(
      this.el,
      leftSection(s.left, this.board.now(), s.launcher),
      h("h2", {}, `Claims (${s.claims.length})`),
      list,
      linesSection(s.lines, s.launcher),
      s.remote ? remoteSection(s.remote) : null,
    );
    if (focusPath !== undefined)
      this.el.querySelector<HTMLElement>(`.tree-dir[data-path="${CSS.escape(focusPath)}"]`)?.focus();
  }
}

function remoteSection(r: UiRemote): HTMLElement {
  const head = ["", "checkout", "who", "branch", "paths", "task", "when"];
  return h(
    "div",
    { class: "remote" },
    h("h2", {}, "Other checkouts"),
    h("p", { class: "muted" }, r.summary),
    ...r.unknown.map((line) => h("p", { class: "warn" }, line)),
    r.rows.length === 0
      ? null
      : h(
          "table",
          { class: "grid" },
          h("thead", {}, h("tr", {}, ...head.map((t) => h("th", {}, t)))),
          h(
            "tbody",
            {},
            ...r.rows.map((x) =>
              h(
                "tr",
                {},
                h("td", {}, x.kind),
                h("td", {}, x.machine),
                h("td", {}, holderChip(x.who)),
                h("td", {}, x.branch),
                h("td", {}, x.paths),
                h("td", {}, x.task),
                h("td", {}, x.when),
              ),
            ),
          ),
        ),
  );
}
