import { describe, expect, it } from "vitest";
import { shownUrl } from "../../../src/core/remote/shown-url.js";

describe("shownUrl", () => {
  it.each([
    ["nats://127.0.0.1:4222", "nats://127.0.0.1:4222"],
    ["nats://alice:s3cret@nats.example:4222", "nats://nats.example:4222"],
    ["tls://token@nats.example", "tls://nats.example"],
    ["alice:s3cret@nats.example:4222", "nats.example:4222"],
    ["nats.example:4222", "nats.example:4222"],
  ])("%s shows as %s", (url, shown) => {
    expect(shownUrl(url)).toBe(shown);
  });
});
