import { holderHue } from "../../core/ui/claim-tree.js";
import { h } from "./dom.js";

/** A session's name in its own colour, the same in every view. */
export function holderChip(name: string): HTMLElement {
  return h("span", { class: "holder", style: `--hue: ${holderHue(name)}` }, name);
}
