export interface HookRequest {
  args: string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  pid: number;
}

export interface HookResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const KNOWN_CLIENTS = new Set(["claude-code", "codex", "cursor"]);

/** `tandem hook <client> <event>`: a function of its inputs that never touches `process`. */
export async function handleHook(req: HookRequest & { stdin: string }): Promise<HookResult> {
  const [client, event] = req.args;
  if (!client || !event || !KNOWN_CLIENTS.has(client)) {
    return {
      exitCode: 2,
      stdout: "",
      stderr: "tandem: usage: tandem hook <claude-code|codex|cursor> <event> (payload on stdin)\n",
    };
  }
  return { exitCode: 0, stdout: "", stderr: "" };
}

/** `tandem git-hook <pre-commit|post-commit|post-checkout>`. */
export async function handleGitHook(req: HookRequest): Promise<HookResult> {
  const [name] = req.args;
  if (!name || !["pre-commit", "post-commit", "post-checkout"].includes(name)) {
    return {
      exitCode: 2,
      stdout: "",
      stderr: "tandem: usage: tandem git-hook <pre-commit|post-commit|post-checkout>\n",
    };
  }
  return { exitCode: 0, stdout: "", stderr: "" };
}
