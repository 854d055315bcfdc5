/** Puts a given text in the index as a file's staged version, the work tree untouched (decision 0061). */
import { git } from "./run.js";

/** The file's mode in the index, else in HEAD, else a plain file's. */
function modeOf(top: string, path: string): string {
  const staged = git(top, ["ls-files", "-s", "-z", "--", path]).split("\0")[0] ?? "";
  if (staged !== "") return staged.split(" ")[0]!;
  const head = git(top, ["ls-tree", "-z", "HEAD", "--", path], { okCodes: [128] }).split("\0")[0] ?? "";
  return head !== "" ? head.split(" ")[0]! : "100644";
}

export function stageText(top: string, path: string, text: string): void {
  // --path applies the file's clean filters, as `git add` would.
  const sha = git(top, ["hash-object", "-w", "--stdin", `--path=${path}`], { input: text }).trim();
  git(top, ["update-index", "--add", "--cacheinfo", `${modeOf(top, path)},${sha},${path}`]);
}
