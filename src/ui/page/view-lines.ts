import type { UiLineAuthor, UiLineFile } from "../../core/ui/line-rows.js";
import { h } from "./dom.js";
import { holderChip } from "./holder-chip.js";

/**
 * Files two sessions share by lines (decision 0061), below the claims: each uncommitted hunk's
 * lines and who wrote them, as `tandem blame PATH` prints them.
 */
export function linesSection(files: readonly UiLineFile[], launcher: string): HTMLElement | null {
  if (files.length === 0) return null;
  return h(
    "div",
    { class: "line-files", "aria-label": "Shared by lines" },
    h("h2", {}, `Shared by lines (${files.length})`),
    h(
      "p",
      { class: "muted" },
      "Each uncommitted hunk of a file sessions edit together, and who wrote it, as of the last write Tandem saw; ",
      h("code", {}, `${launcher} blame PATH`),
      " reads the file now.",
    ),
    ...files.map((f) =>
      h(
        "table",
        { class: "grid line-file", "data-file": f.path },
        h("caption", { class: "path" }, f.path),
        h("thead", {}, headRow()),
        h(
          "tbody",
          {},
          ...f.hunks.map((x) =>
            h(
              "tr",
              { "data-where": x.where },
              h("td", {}, x.where),
              h("td", { class: "num" }, `+${x.added}`),
              h("td", { class: "num" }, `-${x.removed}`),
              h("td", { class: "authors" }, ...x.authors.map(authorChip)),
            ),
          ),
        ),
      ),
    ),
  );
}

const headRow = (): HTMLElement =>
  h(
    "tr",
    {},
    h("th", {}, "lines"),
    h("th", { class: "num" }, "added"),
    h("th", { class: "num" }, "removed"),
    h("th", {}, "written by"),
  );

function authorChip(a: UiLineAuthor): HTMLElement {
  if (a.kind === "writer")
    return h("span", { class: "writer", title: "a person's editor, or a tool no hook saw" }, a.name);
  return h(
    "span",
    { class: "author" },
    holderChip(a.name),
    a.client ? h("span", { class: "muted" }, a.client) : null,
  );
}
