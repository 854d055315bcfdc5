import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, kebab } from "./fixtures.js";
import { hook, type Payload } from "./hooks.js";

/**
 * The hook calls a logging hook recorded for a client (test/fixtures/<client>/*.json: the native
 * event, the hook's environment and its stdin), replayed through the real `tandem hook` entry.
 */
export interface Recording {
  file: string;
  event: string;
  env: Record<string, string>;
  stdin: Payload;
}

export interface Answer {
  code: number;
  out: Record<string, unknown> | null;
}

/** The client's recordings, in the order the directory lists them. */
export function recordingFiles(client: string): string[] {
  return readdirSync(join(FIXTURES, client)).filter((f) => f.endsWith(".json"));
}

/** A recording with its machine's paths (`/home/user/repo`, `/home/user`) moved to this test's. */
export function loadRecording(client: string, file: string, repo: string, home: string): Recording {
  const text = readFileSync(join(FIXTURES, client, file), "utf8")
    .replaceAll("/home/user/repo", repo)
    .replaceAll("/home/user", home);
  const rec = JSON.parse(text) as Omit<Recording, "file">;
  return { file, event: rec.event, env: rec.env, stdin: rec.stdin };
}

/** Runs `tandem hook <client> <event>` with the recording; `cliEvent` defaults to the native name in kebab case. */
export function replayRecording(
  client: string,
  rec: Recording,
  repo: string,
  cliEvent = kebab(rec.event),
): Answer {
  const r = hook(client, cliEvent, rec.stdin, { cwd: repo, env: rec.env });
  return { code: r.code, out: r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : null };
}
