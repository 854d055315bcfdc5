/**
 * Whether Copilot CLI runs this repository's hooks (docs/clients.md §12): repository hooks load only
 * in a folder the person trusted. Interactive `copilot` asks on its first start there; prompt mode
 * (`-p`) never asks and runs none unless trusted, `--trust-folder` is given or COPILOT_ALLOW_ALL is
 * exactly "true".
 */
export interface CopilotTrustFacts {
  root: string;
  /** `trustedFolders` of Copilot's config.json; null when the file is absent or unreadable. */
  trustedFolders: readonly string[] | null;
  allowAllEnv: string | undefined;
}

export type CopilotTrust = "env" | "listed" | "unlisted" | "unknown";

export function copilotTrust(f: CopilotTrustFacts): CopilotTrust {
  if (f.allowAllEnv === "true") return "env";
  if (f.trustedFolders === null) return "unknown";
  const root = f.root.replace(/\/+$/, "");
  const listed = f.trustedFolders.some((d) => {
    const dir = d.replace(/\/+$/, "");
    return root === dir || root.startsWith(`${dir}/`);
  });
  return listed ? "listed" : "unlisted";
}

export function describeCopilotTrust(state: CopilotTrust, root: string, configFile: string): string {
  switch (state) {
    case "env":
      return "COPILOT_ALLOW_ALL=true trusts every folder, so Copilot runs this repository's hooks";
    case "listed":
      return `${configFile} lists ${root} as trusted, so Copilot runs its hooks`;
    case "unlisted":
      return `${configFile} does not list ${root} as trusted: Copilot asks when it starts there interactively, and \`copilot -p\` runs none of its hooks`;
    default:
      return `no readable ${configFile}: Copilot has not trusted ${root} yet, so \`copilot -p\` would run none of its hooks`;
  }
}
