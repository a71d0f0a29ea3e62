/**
 * The per-user limit on live views over real HTTP: maxStreamsPerUser open at once, the next one
 * refused with TOO_MANY_REQUESTS, a closed one gives its place back; other users are not
 * affected.
 */
import { describe, expect, it, vi } from "vitest";
import { Client, httpFarm, person, type EventStream } from "./http-test-support";
import { openStreams } from "./streams";

const LIMIT = 3;

async function opened(client: Client): Promise<EventStream> {
  const stream = await client.subscribe("pools.onChange");
  expect(await stream.next()).toMatchObject({ event: "connected" });
  return stream;
}

describe("live views per user", () => {
  it(`allow ${LIMIT} at once, refuse the next, and count a closed one out`, async () => {
    const h = await httpFarm({ maxStreamsPerUser: LIMIT });
    const vicId = await person(h.farm, "vic", "viewer");
    await person(h.farm, "wes", "wrangler");
    const vic = new Client(h.url);
    await vic.signIn("vic");
    const views: EventStream[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const view = await opened(vic);
      expect(await view.next()).toMatchObject({ event: "message" });
      views.push(view);
    }
    expect(openStreams(h.farm).get(vicId)).toBe(LIMIT);
    const refused = await opened(vic);
    const error = await refused.next();
    expect(error).toMatchObject({ event: "serialized-error" });
    expect(JSON.parse(error!.data)).toMatchObject({ message: expect.stringContaining(`too many live views open (${LIMIT})`), data: { code: "TOO_MANY_REQUESTS" } });
    expect(await refused.next()).toBeNull();
    // Someone else is not affected.
    const wes = new Client(h.url);
    await wes.signIn("wes");
    const theirs = await opened(wes);
    expect(await theirs.next()).toMatchObject({ event: "message" });
    // Closing one gives its place back (once the server has seen the client go).
    await views.pop()!.close();
    await vi.waitFor(() => expect(openStreams(h.farm).get(vicId)).toBe(LIMIT - 1), { timeout: 20_000, interval: 50 });
    const again = await opened(vic);
    expect(await again.next()).toMatchObject({ event: "message" });
    for (const view of [...views, again, theirs]) await view.close();
    await vi.waitFor(() => expect(openStreams(h.farm).size).toBe(0), { timeout: 20_000, interval: 50 });
  });
});
