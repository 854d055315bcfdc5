import { physical, readGeminiTrust, trustedFoldersFile } from "../facts/gemini-trust.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

const CHECK = "gemini trust";

/** `tandem doctor`'s line on Gemini's folder trust: an untrusted project runs none of its hooks. */
export function geminiTrustFinding(root: string, env: Env): Finding {
  const t = readGeminiTrust(root, env);
  const file = trustedFoldersFile(env);
  const add = `add \`"${physical(root)}": "TRUST_FOLDER"\` to ${file}`;
  switch (t.state) {
    case "trusted": {
      const why =
        t.via === "env"
          ? "GEMINI_CLI_TRUST_WORKSPACE=true is set in this shell"
          : t.via === "trust-off"
            ? "folder trust is off in Gemini's user settings"
            : `${file} has ${t.level} for ${t.rule}`;
      return {
        level: "ok",
        check: CHECK,
        detail: `Gemini CLI trusts this project, so it runs Tandem's hooks (${why})`,
      };
    }
    case "untrusted":
      return {
        level: "problem",
        check: CHECK,
        detail:
          t.via === "env"
            ? "GEMINI_CLI_TRUST_WORKSPACE=false or GEMINI_RESTRICTED_MODE=true is set in this shell: Gemini CLI started here runs no project hooks, Tandem's included"
            : `${file} marks this project DO_NOT_TRUST (rule ${t.rule}): Gemini CLI runs none of its hooks, Tandem's included`,
        fix: t.via === "env" ? "unset the variable before starting `gemini`" : `change that rule, or ${add}`,
      };
    case "unlisted":
      return {
        level: "problem",
        check: CHECK,
        detail: `no rule in ${file} covers this project: Gemini CLI asks when opened interactively, and headless (\`gemini -p\`) runs none of its hooks, Tandem's included`,
        fix: `open \`gemini\` here and choose to trust the folder, or ${add}`,
      };
    case "invalid":
      return {
        level: "problem",
        check: CHECK,
        detail: `Gemini CLI's trust settings cannot be read: ${t.detail}; Gemini refuses to start until they are fixed`,
        fix: `fix the file named above (in ${file} each value is TRUST_FOLDER, TRUST_PARENT or DO_NOT_TRUST)`,
      };
  }
}
