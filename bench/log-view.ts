/**
 * A live log view of bench:load: `logs.follow` over SSE (GET /api/trpc/logs.follow, tRPC v11 wire
 * format) read from a streaming fetch, as the portal follows a job or one Session. It counts the
 * lines it receives, twice or out of order, and the lag from print to view.
 */
import type { LogLineView } from "../server/queries/sessions";
import type { Latencies, RunErrors } from "./farm-bench-support";

/** What a live view follows: a job or one Session. */
export type Follow = { jobId: string } | { sessionId: string };

export class LogView {
  readonly ids = new Set<number>();
  duplicates = 0;
  outOfOrder = 0;
  private lastId = 0;
  private readonly controller = new AbortController();
  private closed = false;
  private done: Promise<void> = Promise.resolve();

  constructor(
    readonly follow: Follow,
    private readonly url: string,
    /** A personal access token of the user the view belongs to. */
    private readonly token: string,
    private readonly errors: RunErrors,
    private readonly connectLatency: Latencies,
    private readonly lag: Latencies,
  ) {}

  open(): void {
    const input = encodeURIComponent(JSON.stringify(this.follow));
    const started = performance.now();
    this.done = this.read(`${this.url}/api/trpc/logs.follow?input=${input}`, started).catch((error) => {
      if (!this.closed) this.errors.add(`view ${JSON.stringify(this.follow)}`, error);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.controller.abort();
    await this.done;
  }

  private async read(url: string, started: number): Promise<void> {
    const response = await fetch(url, { headers: { accept: "text/event-stream", authorization: `Bearer ${this.token}` }, signal: this.controller.signal });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        this.event(buffer.slice(0, end), started);
        buffer = buffer.slice(end + 2);
      }
    }
    if (!this.closed) throw new Error("the stream ended while the view was open");
  }

  /** One SSE event: `event:` (connected, ping, serialized-error, return) or a tracked line as `data:` + `id:`. */
  private event(text: string, started: number): void {
    let event = "message";
    let data = "";
    for (const line of text.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    switch (event) {
      case "connected":
        this.connectLatency.add(performance.now() - started);
        return;
      case "ping":
        return;
      case "message": {
        const line = JSON.parse(data) as LogLineView;
        this.lag.add(Date.now() - line.time);
        if (this.ids.has(line.id)) this.duplicates++;
        if (line.id <= this.lastId) this.outOfOrder++;
        this.lastId = Math.max(this.lastId, line.id);
        this.ids.add(line.id);
        return;
      }
      default:
        this.errors.add(`view ${JSON.stringify(this.follow)}: SSE event '${event}' ${data.slice(0, 300)}`);
    }
  }
}
