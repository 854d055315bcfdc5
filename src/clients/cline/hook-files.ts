import { ownedMarkerLine } from "../owned-file.js";
import type { OwnedHookFile } from "../types.js";
import { REFUSAL_KEY } from "./plugin.js";

/** Where Cline CLI looks for a project's hook files (docs/clients.md §14.1). */
export const HOOKS_DIR = ".clinerules/hooks";

/** Cline waits for these and acts on their answer; the others run detached and are only observed. */
const GATES = new Set(["PreToolUse"]);

/**
 * What a gate prints when Tandem gave no answer (not found, crashed, killed): Cline would run the
 * call on an empty or unreadable answer, so the script refuses it the way Tandem does (decision 0039).
 * `person` is how the person the agent asks starts Tandem here.
 */
function noAnswer(person: string): string {
  const text =
    "Tandem could not check this tool call (its hook gave no answer), so the call did not run. " +
    `Ask the person to run \`${person} doctor\` in this repository, then try the call again.`;
  return JSON.stringify({ cancel: false, overrideInput: { [REFUSAL_KEY]: text }, contextModification: text });
}

function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * One POSIX `sh` script per event. The launcher gets the script's stdin untouched and its answer is
 * printed as is: an observational hook `exec`s it; a gate keeps the answer only when the launcher
 * exited 0 with something to say, else prints the refusal above.
 */
export function hookFileText(native: string, cli: string, launcher: string, person: string): string {
  const command = `${launcher} hook cline ${cli}`;
  const head = [
    "#!/bin/sh",
    ownedMarkerLine("#", command),
    `# Cline runs this file for its ${native} hook. Written by \`${person} init\`, removed by \`${person} deinit\`;`,
    "# edits are overwritten (docs/clients.md §14).",
  ];
  const body = GATES.has(native)
    ? [
        `answer=$(${command}) && [ -n "$answer" ] && { printf '%s\\n' "$answer"; exit 0; }`,
        `printf '%s\\n' ${quoted(noAnswer(person))}`,
      ]
    : [`exec ${command}`];
  return `${[...head, ...body].join("\n")}\n`;
}

/**
 * The files `tandem init` writes for Cline, given the launcher a JSON hook command would start with
 * and the person's (`npx tandem` for a devDependency).
 */
export function clineHookFiles(
  events: readonly { native: string; cli: string }[],
  launcher: string,
  person: string,
): OwnedHookFile[] {
  return events.map((e) => ({
    path: `${HOOKS_DIR}/${e.native}`,
    text: hookFileText(e.native, e.cli, launcher, person),
    executable: true,
  }));
}
