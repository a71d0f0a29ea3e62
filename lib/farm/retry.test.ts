import { describe, expect, it } from "vitest";
import { MAX_RETRY_DELAY_SECONDS, retryDelayMs, retryText } from "./retry";

describe("retryDelayMs", () => {
  it.each([
    // base, failures, seconds
    [5, 1, 5],
    [5, 2, 10],
    [5, 3, 20],
    [5, 4, 40],
    [1, 11, 1024],
    [3600, 1, 3600],
    [3600, 2, MAX_RETRY_DELAY_SECONDS],
    [5, 1000, MAX_RETRY_DELAY_SECONDS],
    [0, 3, 0],
    [5, 0, 0],
  ])("base %i s after failure %i waits %i s", (base, failures, seconds) => {
    expect(retryDelayMs(base, failures)).toBe(seconds * 1000);
  });

  it("doubles from one failure to the next until the cap", () => {
    for (let failures = 1; failures < 8; failures++) expect(retryDelayMs(7, failures + 1)).toBe(2 * retryDelayMs(7, failures));
  });
});

describe("retryText", () => {
  it.each([
    [12_000, "Retry in 12 s"],
    [11_001, "Retry in 12 s"],
    [119_000, "Retry in 119 s"],
    [600_000, "Retry in 10 min"],
    [0, "Retrying"],
    [-5_000, "Retrying"],
  ])("%i ms ahead reads %s", (ahead, text) => {
    expect(retryText(1_000_000 + ahead, 1_000_000)).toBe(text);
  });
});
