/**
 * The tRPC HTTP API as the specs call it (as `loom submit` or a pipeline would): queries as GET
 * with the input in the URL, mutations as POST. A call the server refuses fails the test with
 * the server's answer.
 */
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect } from "./fixtures";

async function data<T>(response: APIResponse): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

export async function trpcQuery<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  return data<T>(await request.get(`/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`));
}

async function trpcMutation<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  return data<T>(await request.post(`/api/trpc/${path}`, { data: input }));
}

export interface SubmitInput {
  template: { text: string; format: "yaml" | "json" };
  parameterValues?: Record<string, string>;
  settings?: Record<string, unknown>;
}

/** Submits a job through jobs.submit and returns its id; a refused template fails the test with its errors. */
export async function submitJob(request: APIRequestContext, input: SubmitInput): Promise<string> {
  const result = await trpcMutation<{ ok: boolean; jobId?: string; errors?: unknown }>(request, "jobs.submit", input);
  expect(result, JSON.stringify(result.errors)).toMatchObject({ ok: true });
  return result.jobId as string;
}
