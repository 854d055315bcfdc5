/**
 * A hook request read once (issue 27): the client, the wired event, the parsed payload and the
 * coordination root, computed here and handed down — the server's dispatch, the once-only check
 * and the handler all read the same result instead of parsing and resolving again.
 */
import { type ClientName, clientByName } from "../clients/index.js";
import type { ClientSpec, HookInput, HookKind, WiredEvent } from "../clients/types.js";
import { type ResolvedRoot, stateDirOf } from "../config/root.js";
import { type HookRequest, hookRoot } from "./context.js";

export type ParsedPayload = { input: HookInput } | { skip: true } | { error: string };

export interface ReadHook {
  client: ClientSpec<ClientName>;
  cliEvent: string;
  wired: WiredEvent | null;
  kind: HookKind | "other";
  parsed: ParsedPayload;
  input: HookInput | null;
  /** The root the payload (or the directory) names, or why it could not be resolved. */
  root: { ok: true; value: ResolvedRoot } | { ok: false; error: unknown };
}

function parsePayload(client: ClientSpec<ClientName>, cliEvent: string, stdin: string): ParsedPayload {
  let payload: unknown;
  try {
    payload = JSON.parse(stdin);
  } catch {
    return { error: `payload is not JSON (${stdin.length} bytes)` };
  }
  const parsed = client.parse(cliEvent, payload);
  if (parsed.ok) return { input: parsed.input };
  return parsed.skip ? { skip: true } : { error: parsed.error };
}

/** Null when the arguments name no client or no event: a usage error, answered by the handler. */
export function readHook(req: HookRequest & { stdin: string }): ReadHook | null {
  const [clientName, cliEvent] = req.args;
  const client = clientByName(clientName ?? "");
  if (!client || !cliEvent) return null;
  const wired = client.events.find((e) => e.cli === cliEvent) ?? null;
  const parsed = parsePayload(client, cliEvent, req.stdin);
  const input = "input" in parsed ? parsed.input : null;
  let root: ReadHook["root"];
  try {
    root = { ok: true, value: hookRoot(client, input, req) };
  } catch (error) {
    root = { ok: false, error };
  }
  return { client, cliEvent, wired, kind: wired?.kind ?? "other", parsed, input, root };
}

/** The store directory of a read request; null when its root could not be resolved. */
export function stateDirOfRead(read: ReadHook): string | null {
  return read.root.ok ? stateDirOf(read.root.value) : null;
}
