/** The value without its undefined fields (changed in place), so the model only holds what was written. */
export function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}
