import { leftRows } from "../../core/ui/left-rows.js";
import type { UiLeft } from "../../core/ui/protocol.js";
import { h } from "./dom.js";
import { holderChip } from "./holder-chip.js";

/**
 * Left work (decision 0029), above the claims: files nobody live owns and nobody's end-turn check
 * covers, so they are shown as a problem with the commands that settle each one.
 */
export function leftSection(left: readonly UiLeft[], now: number, launcher: string): HTMLElement | null {
  if (left.length === 0) return null;
  const head = ["file", "left by", "client", "task", "when", "what to do"];
  return h(
    "div",
    { class: "left-work", "aria-label": "Left work of ended sessions" },
    h("h2", { class: "tone-bad" }, `Left work of ended sessions (${left.length})`),
    h(
      "p",
      { class: "muted" },
      "Uncommitted files whose session ended: no live agent owns them. Their bytes are saved. An agent that takes one over continues it with adopt.",
    ),
    h(
      "table",
      { class: "grid" },
      h("thead", {}, h("tr", {}, ...head.map((t) => h("th", {}, t)))),
      h(
        "tbody",
        {},
        ...leftRows(left, now, launcher).map((r) =>
          h(
            "tr",
            { "data-left": r.path },
            h("td", { class: "path" }, r.path),
            h("td", {}, holderChip(r.owner)),
            h("td", {}, r.client),
            h("td", {}, r.task),
            h("td", {}, r.when),
            h(
              "td",
              { class: "commands" },
              ...r.commands.map((c) =>
                h(
                  "div",
                  { class: "command" },
                  h("code", {}, c.command),
                  h("span", { class: "muted" }, ` ${c.what}`),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
