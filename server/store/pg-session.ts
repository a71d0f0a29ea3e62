/**
 * Ending a dedicated node-postgres connection (the events LISTEN connection, the leader's lock
 * connection): a polite goodbye, unless the server does not answer it within `graceMs`; then
 * the socket is destroyed (PostgreSQL ends the session when it notices).
 */
import type pg from "pg";

export async function endSession(client: pg.Client, graceMs = 1_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = client.end().then(
    () => true,
    () => false,
  );
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, graceMs, false)));
  if (!(await Promise.race([ended, late]))) client.connection.stream.destroy();
  clearTimeout(timer);
}
