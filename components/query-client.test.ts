import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import type { AppRouter } from "@/server/router";
import { shouldRetry } from "./query-client";

function answered(httpStatus: number): TRPCClientError<AppRouter> {
  return TRPCClientError.from({ error: { message: `answered ${httpStatus}`, code: -32000, data: { code: "X", httpStatus, path: "p" } } }) as TRPCClientError<AppRouter>;
}

describe("shouldRetry", () => {
  it.each([400, 401, 403, 404, 409, 413, 429])("does not retry an answer of %i", (status) => {
    expect(shouldRetry(0, answered(status))).toBe(false);
  });
  it.each([500, 502, 503])("retries %i up to three times", (status) => {
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, answered(status)))).toEqual([true, true, true, false]);
  });
  it("retries a network failure, which has no answer", () => {
    expect(shouldRetry(0, new TypeError("fetch failed"))).toBe(true);
    expect(shouldRetry(3, new TypeError("fetch failed"))).toBe(false);
  });
});
