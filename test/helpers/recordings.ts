import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, kebab } from "./fixtures.js";
import type { Payload } from "./hooks.js";
import { hook } from "./in-process.js";

/**
 * The hook calls a logging hook recorded for a client (test/fixtures/<client>/*.json: the native
 * event, the hook's environment and its stdin), replayed through the hook handler in this process
 * (./in-process.ts); the binary's path for every client is test/server/differential.test.ts's.
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

/** `tandem hook <client> <event>` answered for the recording; `cliEvent` defaults to the native name in kebab case. */
export async function replayRecording(
  client: string,
  rec: Recording,
  repo: string,
  cliEvent = kebab(rec.event),
): Promise<Answer> {
  const r = await hook(client, cliEvent, rec.stdin, { cwd: repo, env: rec.env });
  return { code: r.code, out: r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : null };
}
