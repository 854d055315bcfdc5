import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codexPatch, denied, hook, ledger } from "../helpers/hooks.js";
import { g, initRepo, tempDir, writeFiles } from "../helpers/repo.js";
import {
  clonedRepo,
  commit,
  config,
  endTurnHere,
  endTurnTextHere,
  problems,
  writeAs,
  writeHere,
} from "./fixture.js";

/** A coordination repository and a sibling repository beside it, both with remotes. */
function workspace() {
  const base = tempDir();
  const { repo } = clonedRepo(base, "repo");
  const { repo: sib } = clonedRepo(base, "sib");
  return { base, repo, sib };
}

const GIT_SIB = { path: "../sib", disposition: "git" };

describe("end-turn across finalization roots", () => {
  it("checks an authorized sibling git root like the project's own: dirty, then committed, then pushed", async () => {
    const { repo, sib } = workspace();
    config(repo, { finalizationRoots: [GIT_SIB] });
    await writeHere(repo, "A", "../sib/lib.ts");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo: sib, path: "lib.ts", state: "??" }],
    });
    commit(sib, "lib", "lib.ts");
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      unpushed: [{ repo: sib, branch: "main", upstream: "origin/main", ahead: 1 }],
    });
    g(sib, "push", "-q");
    expect((await endTurnHere(repo, "A")).code).toBe(0);
  });

  it("normalizes relative, absolute and WSL UNC spellings of one sibling file to one claim", async () => {
    const { repo, sib } = workspace();
    config(repo, { finalizationRoots: [GIT_SIB] });
    const abs = join(sib, "f.txt");
    expect(denied(writeAs(repo, "A", "../sib/f.txt"))).toBeNull();
    expect(denied(writeAs(repo, "A", abs))).toBeNull();
    expect(denied(writeAs(repo, "A", `\\\\wsl$\\Ubuntu${abs.replaceAll("/", "\\")}`))).toBeNull();
    expect(ledger(repo).claims).toEqual([{ path: "f.txt", holder: "A" }]);
    writeFiles(sib, { "f.txt": "x\n" });
    expect(problems((await endTurnHere(repo, "A")).json.findings)).toEqual({
      dirty: [{ repo: sib, path: "f.txt", state: "??" }],
    });
  });

  it("passes files under an output root as approved output", async () => {
    const { base, repo } = workspace();
    mkdirSync(join(base, "out"));
    config(repo, { finalizationRoots: [{ path: "../out", disposition: "output" }] });
    await writeHere(repo, "A", "../out/report.html");
    expect(ledger(repo).events.find((e) => e.kind === "claim.acquired")?.data).toMatchObject({
      disposition: "output",
    });
    expect(await endTurnHere(repo, "A")).toMatchObject({ code: 0, json: { ok: true } });
  });

  it("re-classifies with today's config: a non-Git directory declared git and a repository declared output are both rejected", async () => {
    const { base, repo, sib } = workspace();
    const plain = join(base, "plain");
    mkdirSync(plain);
    config(repo, { finalizationRoots: [{ path: "../plain", disposition: "output" }, GIT_SIB] });
    await writeHere(repo, "A", "../plain/notes.txt");
    await writeHere(repo, "A", "../sib/lib.ts");
    commit(sib, "lib", "lib.ts");
    g(sib, "push", "-q");
    expect((await endTurnHere(repo, "A")).code).toBe(0);

    config(repo, {
      finalizationRoots: [
        { path: "../plain", disposition: "git" },
        { path: "../sib", disposition: "output" },
      ],
    });
    const r = await endTurnHere(repo, "A");
    expect(r.code).toBe(1);
    expect(r.json.findings.unsupported).toEqual([
      {
        path: join(plain, "notes.txt"),
        kind: "invalid-root",
        reason: expect.stringMatching(/declared "git" but .* is not inside any Git repository/),
        remedy: expect.stringMatching(/"disposition": "output"/),
      },
      {
        path: join(sib, "lib.ts"),
        kind: "invalid-root",
        reason: expect.stringMatching(
          /declared "output" \(non-Git output\) but .* is itself a Git repository/,
        ),
        remedy: expect.stringMatching(/"disposition": "git"/),
      },
    ]);
    const text = (await endTurnTextHere(repo, "A")).stderr;
    expect(text).toContain("Owned paths outside what the end-turn check may verify (2):");
    // Nothing asks anyone to commit the non-Git directory.
    expect(text).not.toMatch(new RegExp(`git -C ${plain}|commit.*${plain}|${plain}.*commit`));
  });

  it("fails closed on roots that overlap with different dispositions", async () => {
    const { repo, sib } = workspace();
    config(repo, { finalizationRoots: [GIT_SIB] });
    await writeHere(repo, "A", "../sib/lib.ts");
    commit(sib, "lib", "lib.ts");
    g(sib, "push", "-q");
    config(repo, { finalizationRoots: [GIT_SIB, { path: "../sib", disposition: "output" }] });
    const r = await endTurnHere(repo, "A");
    expect(r.json.findings.unsupported).toEqual([
      expect.objectContaining({
        path: join(sib, "lib.ts"),
        kind: "invalid-root",
        reason: expect.stringMatching(/overlaps/),
      }),
    ]);
  });

  it("rejects an output root that contains a git root, for paths under either", async () => {
    const { base, repo } = workspace();
    const outer = join(base, "outer");
    const inner = clonedRepo(outer, "inner").repo;
    config(repo, { finalizationRoots: [{ path: "../outer/inner", disposition: "git" }] });
    await writeHere(repo, "A", "../outer/inner/lib.ts");
    commit(inner, "lib", "lib.ts");
    g(inner, "push", "-q");
    config(repo, { finalizationRoots: [{ path: "../outer", disposition: "output" }] });
    await writeHere(repo, "A", "../outer/report.txt");
    expect((await endTurnHere(repo, "A")).code).toBe(1);

    config(repo, {
      finalizationRoots: [
        { path: "../outer", disposition: "output" },
        { path: "../outer/inner", disposition: "git" },
      ],
    });
    const r = await endTurnHere(repo, "A");
    expect(r.json.findings.unsupported.map((u) => [u.path, u.kind])).toEqual([
      [join(inner, "lib.ts"), "invalid-root"],
      [join(outer, "report.txt"), "invalid-root"],
    ]);
    expect(r.json.findings.unsupported[1]!.reason).toMatch(/contains git root "..\/outer\/inner"/);
  });

  it("rejects a claimed path that now leads through a symlink out of the root", async () => {
    const { base, repo } = workspace();
    const elsewhere = initRepo(join(base, "elsewhere"));
    await writeHere(repo, "A", "link/f.txt", "x\n");
    // The directory the claim named is replaced by a symlink into another repository.
    rmSync(join(repo, "link"), { recursive: true });
    symlinkSync(elsewhere, join(repo, "link"));
    writeFiles(elsewhere, { "f.txt": "x\n" });
    const r = await endTurnHere(repo, "A");
    expect(r.json.findings.unsupported).toEqual([
      {
        path: join(repo, "link", "f.txt"),
        kind: "symlink-escape",
        reason: `it leads through a symlink out of the root ${repo} to ${join(elsewhere, "f.txt")}`,
        remedy: expect.stringContaining("replace the symlink"),
      },
    ]);
    // With finalization required, a write through such a link is refused before it happens.
    const strict = hook(
      "codex",
      "pre-tool-use",
      codexPatch(repo, "B", "*** Begin Patch\n*** Add File: link/g.txt\n+x\n*** End Patch\n"),
      {
        cwd: repo,
        env: { TANDEM_REQUIRE_GIT_FINALIZATION: "1" },
      },
    );
    expect(denied(strict)).toMatch(/symlink/);
  });
});
