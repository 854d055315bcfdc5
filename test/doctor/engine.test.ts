import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config/schema.js";
import { engineFindings } from "../../src/doctor/engine-check.js";
import { TANDEM_BIN, tandem } from "../helpers/cli.js";
import { type NatsServer, startNats } from "../helpers/nats.js";
import { initRepo, tempDir } from "../helpers/repo.js";

/** `tandem doctor` says which engine is in force and whether NATS answers (decision 0063). */

let nats: NatsServer;
beforeAll(async () => {
  nats = await startNats();
});
afterAll(async () => {
  await nats?.stop();
});

const nats_ = (over: Partial<typeof DEFAULT_CONFIG> = {}) => ({
  ...DEFAULT_CONFIG,
  remoteEngine: "nats" as const,
  natsUrl: nats.url,
  ...over,
});

describe("the engine check", () => {
  it("git by default, nothing to connect to", async () => {
    expect(await engineFindings(DEFAULT_CONFIG, initRepo(tempDir()))).toEqual([
      {
        level: "ok",
        check: "remote engine",
        detail: expect.stringMatching(/^git: .*refs on the Git remote/),
      },
    ]);
  });

  it("nats that answers: the server's version and the buckets, named from the root commit", async () => {
    const [f] = await engineFindings(nats_(), initRepo(tempDir()));
    expect(f).toMatchObject({ level: "ok", check: "remote engine" });
    expect(f!.detail).toMatch(
      /^nats at nats:\/\/127\.0\.0\.1:\d+ \(server 2\.\d+\.\d+\), buckets tandem-[0-9a-f]{12}-presence/,
    );
  });

  it.each([
    { name: "no URL", over: { natsUrl: null }, detail: /no NATS server is named/, fix: /TANDEM_NATS_URL/ },
    {
      name: "nobody listening",
      over: { natsUrl: "nats://127.0.0.1:1" },
      detail: /cannot connect to nats:\/\/127\.0\.0\.1:1/,
      fix: /nats-server -js/,
    },
    {
      name: "a bad bucket name",
      over: { natsBucket: "no spaces" },
      detail: /is not a bucket name/,
      fix: /letters, digits/,
    },
  ])("a problem with its fix: $name", async ({ over, detail, fix }) => {
    const [f] = await engineFindings(nats_(over), initRepo(tempDir()));
    expect(f).toMatchObject({
      level: "problem",
      detail: expect.stringMatching(detail),
      fix: expect.stringMatching(fix),
    });
  });

  it.each([
    { name: "that answers", url: () => nats.url.replace("nats://", "nats://alice:s3cret@") },
    { name: "that does not", url: () => "nats://alice:s3cret@127.0.0.1:1" },
  ])("a URL's user and password are never shown, of a server $name", async ({ url }) => {
    const [f] = await engineFindings(nats_({ natsUrl: url() }), initRepo(tempDir()));
    expect(JSON.stringify(f)).toMatch(/127\.0\.0\.1/);
    expect(JSON.stringify(f)).not.toMatch(/s3cret|alice/);
  });

  it("tandem doctor prints the line", () => {
    const repo = initRepo(tempDir());
    const r = tandem(["doctor"], {
      cwd: repo,
      env: {
        TANDEM_SERVER: "0",
        TANDEM_REMOTE: "1",
        TANDEM_REMOTE_ENGINE: "nats",
        TANDEM_NATS_URL: nats.url,
      },
    });
    expect(r.stdout).toMatch(/✓ remote engine: nats at nats:\/\/127\.0\.0\.1/);
  });
});

describe("the NATS client stays off the hook path", () => {
  // A distinctive string of the KV client, and of the transport.
  const MARKS = ["KV_WATCHER_", "credsAuthenticator"];
  const bundle = (name: string) => readFileSync(TANDEM_BIN.replace(/tandem\.cjs$/, name), "utf8");
  it.each(["hook.cjs", "server.cjs", "cli-light.cjs", "tandem.cjs"])("%s holds none of it", (name) => {
    const text = bundle(name);
    for (const mark of MARKS) expect(text).not.toContain(mark);
  });
  it("the full command line carries it (the check above would see it)", () => {
    const text = bundle("cli.cjs");
    for (const mark of MARKS) expect(text).toContain(mark);
  });
});
