import { configTemplateText } from "../config/template.js";
import { type InitRecord, templateInit } from "./init-record.js";

/**
 * The `.tandem/config.jsonc` that `tandem init` creates: every key of the table in
 * src/config/keys.ts commented out with its default and meaning (src/config/template.ts).
 */

/** Without an init record: every key commented out, so it parses to an empty config. */
export const CONFIG_TEMPLATE = configTemplateText(null);

/** What `tandem init` writes: the template with the wiring it chose recorded. */
export function configTemplate(record: InitRecord): string {
  return configTemplateText(templateInit(record));
}
