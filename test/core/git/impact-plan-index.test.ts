/**
 * Commands that change only the index, as plans: which staged changes they drop (`unstage`), and
 * what `git add` and `update-index` stage (`stage`) and replace (`S* → unstage`: a path staged and
 * then changed again, whose staged version exists nowhere else). An entry equal to HEAD's is never
 * picked: dropping it loses nothing.
 */
import { describe } from "vitest";
import { table } from "./impact-table.js";

const ADD_ALL = "stage *: SU?@ps + S*@ps → unstage";

describe("a mixed reset drops the staged changes it reaches", () => {
  table([
    ["reset", "unstage *: S"],
    ["reset --mixed", "unstage *: S"],
    ["reset -q", "unstage *: S"],
    ["reset -N", "unstage *: S"],
    ["reset HEAD~1", "HEAD~1 { unstage *: S | unstage HEAD~1: S@ps }"],
    ["reset f", "f { unstage *: S | unstage f: S@ps }"],
    ["reset main f g", "main { unstage f,g: S@ps | unstage main,f,g: S@ps }"],
    ["reset -- f", "unstage f: S@ps"],
    ["reset HEAD -- f g", "unstage f,g: S@ps"],
    ["reset HEAD --", "unstage *: S"],
    ["reset a b -- f", "none"],
    ["reset - f", "unstage f: S@ps"],
    ["reset -p", "unstage *: S"],
    ["reset -p -- f", "unstage f: S@ps"],
    ["reset --pathspec-from-file=list", "unstage file:list: S@ps"],
    ["reset --mixed --soft", "none"],
    ["reset --soft --mixed", "unstage *: S"],
    ["reset --soft", "none"],
    ["reset --hard", "*: SU + ? ∩ HEAD..HEAD"],
  ]);
});

describe("rm --cached and restore --staged drop the staged changes they name", () => {
  table([
    ["rm --cached f", "unstage f: S@ps"],
    ["rm --cached -r dir", "unstage dir: S@ps"],
    ["rm --cached -f -- -f", "unstage -f: S@ps"],
    ["rm --cached -n f", "none"],
    ["rm --cached", "none"],
    ["rm --cached --pathspec-from-file=list", "unstage file:list: S@ps"],
    ["restore --staged f", "unstage f: S@ps"],
    ["restore -S --source=HEAD~1 -- *.txt", "unstage *.txt: S@ps"],
    ["restore --staged -p", "unstage *: S"],
    ["restore --staged", "none"],
    ["restore --staged --worktree f", "f: SU?@ps ∩ differs HEAD"],
  ]);
});

describe("read-tree without -u rewrites the whole index", () => {
  table([
    ["read-tree HEAD", "unstage *: S"],
    ["read-tree main", "unstage *: S"],
    ["read-tree -m HEAD", "unstage *: S"],
    ["read-tree -m -i HEAD~1 HEAD", "unstage *: S"],
    ["read-tree --empty", "unstage *: S"],
    ["read-tree", "unstage *: S"],
    ["read-tree --reset HEAD", "unstage *: S"],
    ["read-tree -n HEAD", "none"],
    ["read-tree --prefix=vendor/ HEAD", "none"],
    ["read-tree --index-output=/tmp/idx HEAD", "unknown"],
    ["read-tree -u --reset HEAD", "*: SU + ? ∩ HEAD..HEAD"],
    ["read-tree -u --prefix=vendor/ -m HEAD", "unknown"],
  ]);
});

describe("update-index", () => {
  table([
    ["update-index --force-remove f", "unstage :(literal)f: S@ps"],
    ["update-index --force-remove -- f *.txt", "unstage :(literal)f,:(literal)*.txt: S@ps"],
    ["update-index --force-remove --cacheinfo 100644,abc,f", "unstage :(literal)f: S@ps"],
    ["update-index --force-remove", "none"],
    ["update-index --force-remove --stdin", "unknown"],
    ["update-index --index-info", "unknown"],
    ["update-index f", "stage :(literal)f: SU@ps + S*@ps → unstage"],
    ["update-index --add -- f", "stage :(literal)f: SU?@ps + S*@ps → unstage"],
    ["update-index --remove f", "stage :(literal)f: SU@ps + S*@ps → unstage"],
    ["update-index --refresh f", "stage :(literal)f: SU@ps + S*@ps → unstage"],
    ["update-index --chmod=+x f", "stage :(literal)f: SU@ps + S*@ps → unstage"],
    ["update-index --assume-unchanged f", "stage :(literal)f: SU@ps + S*@ps → unstage"],
    ["update-index --cacheinfo 100644,abc,f", "unstage *: S ∩ paths f"],
    [
      "update-index --add --cacheinfo 100644 abc f",
      "stage :(literal)abc,:(literal)f: SU?@ps + S*@ps → unstage + S ∩ paths abc f → unstage",
    ],
    ["update-index -g", "unstage *: S*"],
    ["update-index --again f", "stage :(literal)f: SU@ps + S*@ps → unstage + S* → unstage"],
    ["update-index --refresh", "none"],
    ["update-index --really-refresh -q", "none"],
    ["update-index --split-index", "none"],
    ["update-index --index-version 4", "none"],
  ]);
});

describe("add stages what its pathspec reaches and replaces staged versions changed since", () => {
  table([
    ["add f", "stage f: SU?@ps + S*@ps → unstage"],
    ["add -- f dir/", "stage f,dir/: SU?@ps + S*@ps → unstage"],
    ["add .", "stage .: SU?@ps + S*@ps → unstage"],
    ["add -A", ADD_ALL],
    ["add --all", ADD_ALL],
    ["add --no-ignore-removal", ADD_ALL],
    ["add -p", ADD_ALL],
    ["add -u", "stage *: SU@ps + S*@ps → unstage"],
    ["add -u -- src", "stage src: SU@ps + S*@ps → unstage"],
    ["add --renormalize .", "stage .: SU@ps + S*@ps → unstage"],
    ["add -f build/out.js", "stage build/out.js: SU?!@ps + S*@ps → unstage"],
    ["add --chmod=+x run.sh", "stage run.sh: SU?@ps + S*@ps → unstage"],
    ["add --pathspec-from-file=list --pathspec-file-nul", "stage file:list\\0: SU?@ps + S*@ps → unstage"],
    ["add", "none"],
    ["add --no-all", "none"],
    ["add -n .", "none"],
    ["add --dry-run -A", "none"],
    ["add -N new.txt", "none"],
    ["add --refresh f", "none"],
    ["add --frobnicate f", "unknown"],
  ]);
});

describe("an alias of add is planned as add", () => {
  table([
    ["-c alias.a=add a f", "stage f: SU?@ps + S*@ps → unstage"],
    ["-c alias.aa=add␠-A aa", ADD_ALL],
    ["-c alias.a=!git␠add a f", "unknown"],
  ]);
});
