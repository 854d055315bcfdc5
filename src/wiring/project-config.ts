import { configTemplateText } from "../config/template.js";
import { type InitRecord, templateInit } from "./init-record.js";

/**
 * The `.tandem/config.jsonc` that `tandem init` creates: every key of the table in
 * src/config/keys.ts commented out with its default and meaning (src/config/template.ts).
 */

/**
 * What `tandem init` writes: the template with the wiring it chose recorded; without a record,
 * every key commented out, so it parses to an empty config. Rendered when asked, not at load:
 * every hook loads this module (the wiring heal), few write a template.
 */
export function configTemplate(record?: InitRecord): string {
  return configTemplateText(record ? templateInit(record) : null);
}
