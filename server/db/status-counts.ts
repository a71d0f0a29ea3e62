/**
 * Per-status task counts of steps and jobs are integer columns, one per task status
 * (`count_ready`, `count_not_compatible`, …), so a count changes by arithmetic in one UPDATE
 * (`SET count_ready = count_ready - 3`) on either engine, and SQL can filter and order on them.
 * This is the one place that maps a status to its column; callers keep using StatusCounts.
 */
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";

type Words<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Capitalize<Lowercase<Head>>}${Words<Tail>}` : Capitalize<Lowercase<S>>;

/** The SQL column of a status's count: `count_not_compatible`. */
export type CountColumn<S extends TaskStatus = TaskStatus> = `count_${Lowercase<S>}`;
/** The drizzle property of a status's count: `countNotCompatible`. */
export type CountKey<S extends TaskStatus = TaskStatus> = `count${Words<S>}`;

export type CountColumnsRow = { [S in TaskStatus as CountColumn<S>]: number };
export type CountValues = { [S in TaskStatus as CountKey<S>]: number };

export function countColumn<S extends TaskStatus>(status: S): CountColumn<S> {
  return `count_${status.toLowerCase()}` as CountColumn<S>;
}

export function countKey<S extends TaskStatus>(status: S): CountKey<S> {
  const words = status.split("_").map((word) => word[0] + word.slice(1).toLowerCase());
  return `count${words.join("")}` as CountKey<S>;
}

/** Every count column for a schema, built by the dialect's `integer(name).notNull().default(0)`. */
export function statusCountColumns<C>(build: (column: string) => C): { [S in TaskStatus as CountKey<S>]: C } {
  return Object.fromEntries(TASK_STATUSES.map((status) => [countKey(status), build(countColumn(status))])) as { [S in TaskStatus as CountKey<S>]: C };
}

/** `count_pending, count_ready, …` for a SELECT list, each prefixed by a table alias when given (`st.`). */
export function countColumnsSql(alias?: string): string {
  return TASK_STATUSES.map((status) => (alias ? `${alias}.${countColumn(status)}` : countColumn(status))).join(", ");
}

/** The sum of some statuses' counts as an SQL expression: `(st.count_assigned + st.count_running)`. */
export function countSumSql(statuses: readonly TaskStatus[], alias?: string): string {
  return `(${statuses.map((status) => (alias ? `${alias}.${countColumn(status)}` : countColumn(status))).join(" + ")})`;
}

/** The counts of a row that selected every count column. */
export function countsFromRow(row: CountColumnsRow): StatusCounts {
  return Object.fromEntries(TASK_STATUSES.map((status) => [status, row[countColumn(status)]])) as StatusCounts;
}

/** Counts as drizzle insert values (`{ countReady: 20, … }`). */
export function countValues(counts: Readonly<StatusCounts>): CountValues {
  return Object.fromEntries(TASK_STATUSES.map((status) => [countKey(status), counts[status]])) as CountValues;
}

/** Counts from a drizzle row (`{ countReady: 20, … }`). */
export function countsFromValues(values: CountValues): StatusCounts {
  return Object.fromEntries(TASK_STATUSES.map((status) => [status, values[countKey(status)]])) as StatusCounts;
}
