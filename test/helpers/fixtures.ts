import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = join(process.cwd(), "test", "fixtures");

export interface RecordedPayload {
  client: "claude-code" | "codex";
  source: string;
  /** The native event name (PascalCase). */
  event: string;
  payload: Record<string, unknown>;
}

/**
 * Every recorded payload in the hook format Claude Code and Codex share (`hook_event_name`): the
 * one-per-file fixtures and the observed JSONL captures. The other clients record `{event, stdin}`
 * captures in their own formats, replayed by their own tests and by test/server/scenario.ts.
 */
export function recordedPayloads(): RecordedPayload[] {
  const out: RecordedPayload[] = [];
  for (const client of ["claude-code", "codex"] as const) {
    const dir = join(FIXTURES, client);
    for (const file of readdirSync(dir)) {
      if (file.endsWith(".jsonl")) {
        readFileSync(join(dir, file), "utf8")
          .split("\n")
          .filter(Boolean)
          .forEach((line, i) => {
            const rec = JSON.parse(line) as { event: string; stdin: Record<string, unknown> };
            out.push({ client, source: `${file}:${i + 1}`, event: rec.event, payload: rec.stdin });
          });
      } else if (file.endsWith(".json") && !file.startsWith("hook-")) {
        const payload = JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;
        out.push({ client, source: file, event: String(payload.hook_event_name), payload });
      }
    }
  }
  return out;
}

/** `PreToolUse` → `pre-tool-use`. */
export function kebab(native: string): string {
  return native.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

export function codexSchemas(): Record<
  string,
  {
    properties?: Record<string, unknown>;
    definitions?: Record<string, { properties?: Record<string, unknown> }>;
  }
> {
  return JSON.parse(readFileSync(join(FIXTURES, "codex", "hook-schemas-0.171.0.json"), "utf8"));
}
