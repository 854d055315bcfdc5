import type { ProblemsReport } from "../../core/ui/protocol.js";
import type { Change } from "./app.js";
import { getJson, h, replace } from "./dom.js";
import { eventLine } from "./view-sessions.js";

/** What `tandem doctor` finds and the recorded hook errors; re-read when a hook error arrives. */
export class ProblemsView {
  readonly el = h("section", { class: "view", "aria-label": "Problems" });
  private loaded = false;

  update(c: Change): void {
    if (this.loaded && c.events.some((e) => e.kind === "hook.error")) void this.load();
  }

  shown(): void {
    void this.load();
  }

  private async load(): Promise<void> {
    if (!this.loaded) replace(this.el, h("p", { class: "muted" }, "Running the doctor's checks…"));
    const r = await getJson<ProblemsReport>("/api/problems");
    this.loaded = true;
    const findings = r.findings.map((f) =>
      h(
        "li",
        { class: f.level === "problem" ? "tone-bad" : "" },
        h("strong", {}, `${f.level === "problem" ? "✗" : "·"} ${f.check}: `),
        f.detail,
        f.fix ? h("div", { class: "fix" }, `fix: ${f.fix}`) : null,
      ),
    );
    replace(
      this.el,
      h("h2", {}, "Doctor"),
      findings.length ? h("ul", { class: "findings" }, ...findings) : h("p", {}, "No problems found."),
      h("h2", {}, "Hook errors"),
      r.hookErrors.length
        ? h("ul", { class: "recent" }, ...r.hookErrors.map((e) => eventLine(e)))
        : h("p", {}, "No hook errors recorded."),
    );
  }
}
