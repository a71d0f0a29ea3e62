/**
 * The tRPC HTTP API as the specs call it (as `loom submit` or a pipeline would): queries as GET
 * with the input in the URL, mutations as POST. Every call is authenticated: pass a persona's
 * `page.request` (it carries that browser's session cookie; mutations then send the portal's
 * Origin, as the browser would, for the server's cross-site check), or `localAdminApi()`, which
 * sends the local admin's token from the e2e data folder as a script does. A call the server
 * refuses fails the test with the server's answer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { BASE_URL, DATA_DIR } from "./personas";

async function data<T>(response: APIResponse): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

export async function trpcQuery<T>(request: APIRequestContext, path: string, input?: unknown): Promise<T> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return data<T>(await request.get(`/api/trpc/${path}${query}`));
}

/** A mutation's raw answer (for specs that expect a refusal). */
export function trpcPost(request: APIRequestContext, path: string, input: unknown): Promise<APIResponse> {
  return request.post(`/api/trpc/${path}`, { data: input, headers: { origin: BASE_URL } });
}

export async function trpcMutation<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  return data<T>(await trpcPost(request, path, input));
}

/** The token `loom serve` keeps for `loom` on this machine (data/e2e-<port>/local-admin.token). */
export function localAdminToken(): string {
  return readFileSync(join(DATA_DIR, "local-admin.token"), "utf8").trim();
}

/** A script's view of the API: `Authorization: Bearer <token>` on every call (the local admin's by default). */
export function tokenApi(token: string = localAdminToken()): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
}

export interface SubmitInput {
  template: { text: string; format: "yaml" | "json" };
  parameterValues?: Record<string, string>;
  settings?: Record<string, unknown>;
}

/** Submits a job through jobs.submit as the caller and returns its id; a refused template fails the test with its errors. */
export async function submitJob(request: APIRequestContext, input: SubmitInput): Promise<string> {
  const result = await trpcMutation<{ ok: boolean; jobId?: string; errors?: unknown }>(request, "jobs.submit", input);
  expect(result, JSON.stringify(result.errors)).toMatchObject({ ok: true });
  return result.jobId as string;
}
