import { expect, it } from "vitest";
import { bucketMadeElsewhere } from "../../../src/core/remote/bucket-race.js";

const cases: [string, boolean][] = [
  ["stream name already in use with a different configuration", true],
  ["stream name already in use", true],
  ["subjects overlap with an existing stream", true],
  ["jetstream not enabled", false],
  ["insufficient resources", false],
  ["Permissions Violation for Publish to $JS.API.STREAM.CREATE.KV_x", false],
  ["", false],
];

it.each(cases)("a bucket create that failed with %j was made by another clone: %s", (message, want) => {
  expect(bucketMadeElsewhere(message)).toBe(want);
});
