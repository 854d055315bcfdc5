/**
 * opencode's plugins beside Tandem's (issue 37.5): the project's and the person's. Tandem neither
 * removes nor rewrites them (a plugin is someone's code), so `doctor` and `init --check` name each
 * with what to do; agents may not edit the project's (the wiring list of src/clients/opencode/spec.ts).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { PLUGIN_FILE } from "../clients/opencode/plugin.js";
import {
  CONFIG_FILES,
  configPlugins,
  isForeignPlugin,
  PLUGIN_FOLDERS,
  parentDirs,
  projectConfigDirs,
  userConfigDirs,
} from "../clients/opencode/plugin-dirs.js";
import { gitStatus } from "../git/run.js";
import { parseJson } from "../wiring/json-edit.js";
import type { Finding } from "./finding.js";

type Env = Readonly<Record<string, string | undefined>>;

function modules(dir: string): string[] {
  try {
    return readdirSync(dir).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function pluginEntries(file: string): string[] {
  try {
    const parsed = parseJson(file, readFileSync(file, "utf8"));
    return parsed.ok ? configPlugins(parsed.value) : [];
  } catch {
    return [];
  }
}

/** The work tree's top, or null outside one (then no parent is read). */
function topOf(root: string): string | null {
  try {
    const r = gitStatus(root, ["rev-parse", "--show-toplevel"]);
    return r.status === 0 ? r.stdout.trim() : null;
  } catch {
    return null;
  }
}

/** Only where opencode is wired: Tandem's plugin file is in the project. */
export function opencodePluginFindings(root: string, env: Env): Finding[] {
  if (!existsSync(join(root, PLUGIN_FILE))) return [];
  const project = projectConfigDirs(root);
  const user = userConfigDirs(env, env.HOME || homedir());
  const scan = (dir: string, own: string | null, configs: string[], mine: boolean): Finding[] => [
    ...PLUGIN_FOLDERS.flatMap((f) => modules(join(dir, f)))
      .filter((p) => isForeignPlugin(own, p))
      .map((p) => problem(p, "a plugin module", mine)),
    ...configs.flatMap((c) => {
      const names = pluginEntries(c);
      return names.length > 0 ? [problem(c, `plugin: ${names.join(", ")}`, mine)] : [];
    }),
  ];
  return [
    ...scan(project.dir, root, project.configs, true),
    ...parentDirs(root, topOf(root)).flatMap((d) => {
      const up = projectConfigDirs(d);
      return scan(up.dir, null, up.configs, true);
    }),
    ...user.flatMap((d) =>
      scan(
        d,
        null,
        CONFIG_FILES.map((f) => join(d, f)),
        false,
      ),
    ),
  ];
}

function problem(file: string, what: string, project: boolean): Finding {
  const whose = project ? "the project's" : "your own";
  return {
    level: "problem",
    check: "opencode plugins",
    detail: `${file}: ${what} runs in the same hooks as Tandem's plugin and can change or stop a tool call after Tandem's check`,
    fix: `read it; if nobody here meant it, remove it from ${file} (${whose} file: Tandem does not change it), then restart opencode`,
  };
}
