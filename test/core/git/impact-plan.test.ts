import { describe } from "vitest";
import { table } from "./impact-table.js";

const FORCED_SWITCH = (to: string) => `*: SU + ? ∩ HEAD..${to}`;

describe("checkout", () => {
  table([
    ["checkout .", ".? { none | .: U@ps }"],
    ["checkout -- .", ".: U@ps"],
    ["checkout -- f", "f: U@ps"],
    ["checkout -- -weird␠name", "-weird name: U@ps"],
    ["checkout dir/", "dir/? { none | dir/: U@ps }"],
    ["checkout -- *.txt", "*.txt: U@ps"],
    ["checkout -- :(glob)**/*.txt", ":(glob)**/*.txt: U@ps"],
    ["checkout -p", "*: U@ps"],
    ["checkout -p -- f", "f: U@ps"],
    ["checkout --patch HEAD", "HEAD? { *: SU?@ps ∩ differs HEAD | HEAD: U@ps }"],
    ["checkout --theirs -- f", "f: U@ps"],
    ["checkout --ours f", "f? { none | f: U@ps }"],
    ["checkout -f -- f", "f: U@ps"],
    ["checkout HEAD -- f", "f: SU?@ps ∩ differs HEAD"],
    ["checkout main~2 -- a b", "a,b: SU?@ps ∩ differs main~2"],
    ["checkout main f g", "main { f,g: SU?@ps ∩ differs main | main,f,g: U@ps }"],
    ["checkout - -- f", "f: SU?@ps ∩ differs @{-1}"],
    ["checkout a b -- f", "none"],
    ["checkout --pathspec-from-file=list", "file:list: U@ps"],
    ["checkout --pathspec-from-file list --pathspec-file-nul HEAD", "file:list\\0: SU?@ps ∩ differs HEAD"],
    ["checkout --pathspec-from-file=list -- f", "none"],
    ["checkout --pathspec-from-file=list HEAD f", "none"],
  ]);
});

describe("checkout as a branch switch", () => {
  table([
    ["checkout main", "main? { none | main: U@ps }"],
    ["checkout --no-guess main", "main { none | main: U@ps }"],
    ["checkout --no-guess --guess main", "main? { none | main: U@ps }"],
    ["checkout -f main", `main? { ${FORCED_SWITCH("main")} | main: U@ps }`],
    ["checkout --force main", `main? { ${FORCED_SWITCH("main")} | main: U@ps }`],
    ["checkout -m main", "main? { *: SU? ∩ HEAD..main | main: U@ps }"],
    ["checkout main --", "none"],
    ["checkout -f main --", FORCED_SWITCH("main")],
    ["checkout -", "none"],
    ["checkout -f -", FORCED_SWITCH("@{-1}")],
    ["checkout", "none"],
    ["checkout -f", FORCED_SWITCH("HEAD")],
    ["checkout -b topic", "none"],
    ["checkout -b topic origin/main", "none"],
    ["checkout -fb topic origin/main", FORCED_SWITCH("origin/main")],
    ["checkout -B topic -f", FORCED_SWITCH("HEAD")],
    ["checkout --orphan=fresh", "none"],
    ["checkout --orphan fresh -f", FORCED_SWITCH("HEAD")],
    ["checkout --detach -f v1", FORCED_SWITCH("v1")],
    ["checkout --recurse-submodules --no-track -q main", "main? { none | main: U@ps }"],
  ]);
});

describe("restore", () => {
  table([
    ["restore .", ".: U@ps"],
    ["restore -- f", "f: U@ps"],
    ["restore --worktree f", "f: U@ps"],
    ["restore --staged f", "unstage f: S@ps"],
    ["restore -S f", "unstage f: S@ps"],
    ["restore -SW f", "f: SU?@ps ∩ differs HEAD"],
    ["restore --staged --worktree f", "f: SU?@ps ∩ differs HEAD"],
    ["restore -s main~1 f", "f: SU?@ps ∩ differs main~1"],
    ["restore --source=HEAD -- *.txt", "*.txt: SU?@ps ∩ differs HEAD"],
    ["restore --theirs f", "f: U@ps"],
    ["restore -p", "*: U@ps"],
    ["restore", "none"],
    ["restore --pathspec-from-file=- --pathspec-file-nul", "file:-\\0: U@ps"],
    ["restore --sourc=HEAD f", "f: SU?@ps ∩ differs HEAD"],
    ["restore --frobnicate f", "unknown"],
  ]);
});

describe("switch", () => {
  table([
    ["switch main", "none"],
    ["switch -", "none"],
    ["switch -f main", FORCED_SWITCH("main")],
    ["switch --discard-changes main", FORCED_SWITCH("main")],
    ["switch --force -", FORCED_SWITCH("@{-1}")],
    ["switch -m main", "*: SU? ∩ HEAD..main"],
    ["switch -c topic", "none"],
    ["switch -fc topic main", FORCED_SWITCH("main")],
    ["switch -C topic -f", FORCED_SWITCH("HEAD")],
    ["switch --detach -f", FORCED_SWITCH("HEAD")],
    ["switch --orphan fresh", "none"],
    ["switch --orphan fresh --discard-changes", "*: SU"],
    ["switch", "none"],
  ]);
});

describe("stash", () => {
  table([
    ["stash", "*: SU@ps"],
    ["stash push", "*: SU@ps"],
    ["stash save", "*: SU@ps"],
    ["stash save -u wip␠message", "*: SU?@ps"],
    ["stash -u", "*: SU?@ps"],
    ["stash --include-untracked", "*: SU?@ps"],
    ["stash -a", "*: SU?!@ps"],
    ["stash push --all", "*: SU?!@ps"],
    ["stash -k", "*: U@ps"],
    ["stash --keep-index -u", "*: U?@ps"],
    ["stash --staged", "*: S@ps"],
    ["stash -p", "*: SU@ps"],
    ["stash -- f", "f: SU@ps"],
    ["stash push -m msg f dir/", "f,dir/: SU@ps"],
    ["stash push -um msg -- f", "f: SU?@ps"],
    ["stash push --pathspec-from-file=list", "file:list: SU@ps"],
    ["stash pop", "*: SU? ∩ stash stash@{0}"],
    ["stash apply", "*: SU? ∩ stash stash@{0}"],
    ["stash pop --index stash@{2}", "*: SU? ∩ stash stash@{2}"],
    ["stash apply 1", "*: SU? ∩ stash stash@{1}"],
    ["stash list", "none"],
    ["stash show -p", "none"],
    ["stash drop", "none"],
    ["stash clear", "none"],
    ["stash branch topic", "none"],
    ["stash create", "none"],
    ["stash frobnicate", "none"],
  ]);
});

describe("reset", () => {
  table([
    ["reset --soft HEAD~1", "none"],
    ["reset --soft -- f", "none"],
    ["reset --hard", "*: SU + ? ∩ HEAD..HEAD"],
    ["reset --hard HEAD~1", "*: SU + ? ∩ HEAD..HEAD~1"],
    ["reset -q --hard origin/main", "*: SU + ? ∩ HEAD..origin/main"],
    ["reset --hard --soft", "none"],
    ["reset --soft --hard", "*: SU + ? ∩ HEAD..HEAD"],
    ["reset --hard -- f", "none"],
    ["reset --merge", "*: S + SU? ∩ HEAD..HEAD"],
    ["reset --merge ORIG_HEAD", "*: S + SU? ∩ HEAD..ORIG_HEAD"],
    ["reset --keep HEAD~1", "*: SU? ∩ HEAD..HEAD~1"],
  ]);
});

describe("clean", () => {
  table([
    ["clean -f", "*: ? ∩ clean --"],
    ["clean -n", "none"],
    ["clean --dry-run -f", "none"],
    ["clean -fd", "*: ? ∩ clean -d --"],
    ["clean -fdx", "*: ?! ∩ clean -d -x --"],
    ["clean -fX", "*: ! ∩ clean -X --"],
    ["clean -ffd", "*: ? ∩ clean -d -f -f --"],
    ["clean -f -e *.keep -- sub", "*: ? ∩ clean --exclude=*.keep -- sub"],
    ["clean -fd --exclude=a␠b sub other", "*: ? ∩ clean -d --exclude=a b -- sub other"],
    ["clean -i", "*: ? ∩ clean --"],
    ["clean -dq", "*: ? ∩ clean -d --"],
  ]);
});

describe("rm and mv", () => {
  table([
    ["rm f", "f: SU@ps"],
    ["rm -rf dir", "dir: SU@ps"],
    ["rm -r -f -- -f", "-f: SU@ps"],
    ["rm --cached f", "unstage f: S@ps"],
    ["rm -n f", "none"],
    ["rm", "none"],
    ["rm --pathspec-from-file=list", "file:list: SU@ps"],
    ["mv a b", "*: SU? ∩ paths a/** b b/a/**"],
    ["mv -f a dir/b", "*: SU? ∩ paths a/** dir/b dir/b/a/**"],
    ["mv a b dir", "*: SU? ∩ paths a/** b/** dir dir/a/** dir/b/**"],
    ["mv -k sub/ out", "*: SU? ∩ paths sub//** out out/sub/**"],
    ["mv -n a b", "none"],
    ["mv a", "none"],
  ]);
});
