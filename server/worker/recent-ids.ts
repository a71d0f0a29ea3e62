/**
 * The ids of things that ended lately, so a message the server sends again after a lost answer
 * is recognised; the oldest are forgotten past `capacity`, so memory does not grow with uptime.
 */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly capacity: number) {}

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value as string);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}
