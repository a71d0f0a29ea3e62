/**
 * What is kept once per database (a store, or a raw better-sqlite3 handle) rather than per
 * request: the handle outlives every request that uses it, and what hangs off it (the store's
 * health, say) is shared by all of them.
 */
export function perDatabase<T, K extends object = object>(build: (handle: K) => T): (handle: K) => T {
  const built = new WeakMap<K, T>();
  return (handle) => {
    let value = built.get(handle);
    if (value === undefined) built.set(handle, (value = build(handle)));
    return value;
  };
}
