import { CLIENTS } from "./index.js";

/**
 * The registered clients as the markdown table in docs/clients.md §0.1, generated from each client's
 * spec so the docs cannot forget one (a test compares it with the committed text).
 */
export function clientsTable(): string {
  const rows = Object.values(CLIENTS).map((c) => {
    const cells = [
      `\`${c.name}\``,
      c.label,
      `\`${c.settingsFile}\``,
      c.ritual.form,
      c.trust ?? "none",
      `\`${[c.subagent.command, ...c.subagent.args].join(" ")}\``,
      `\`src/clients/${c.name}/\``,
    ];
    return `| ${cells.join(" | ")} |`;
  });
  const head = "| name | client | hooks file | ritual | trust step | `sub run` line | folder |";
  return [head, "|---|---|---|---|---|---|---|", ...rows].join("\n");
}
