import type { KeyboardEventHandler, ReactNode } from "react";

/** A column heading; `hidden` ones are named for screen readers only (an actions column). */
export type Column = string | { label: string; hidden: true };

interface Props {
  /** The table's accessible name. */
  label: string;
  /** Falsy entries are left out (a column only admins see). */
  columns: ReadonlyArray<Column | false | null | undefined>;
  /** Shown across every column when there is no row. */
  empty?: ReactNode;
  className?: string;
  onKeyDown?: KeyboardEventHandler<HTMLTableSectionElement>;
  children: ReactNode;
}

/** The portal's list tables: scrolling sideways on narrow screens, named, with column headings and an optional empty row. */
export function DataTable({ label, columns, empty, className = "data admin-table", onKeyDown, children }: Props) {
  const shown = columns.filter((c): c is Column => Boolean(c));
  return (
    <div className="table-scroll">
      <table className={className} aria-label={label}>
        <thead>
          <tr>
            {shown.map((column) =>
              typeof column === "string" ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.label} scope="col">
                  <span className="visually-hidden">{column.label}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody onKeyDown={onKeyDown}>
          {empty !== undefined && empty !== null && empty !== false && (
            <tr>
              <td colSpan={shown.length} className="muted">
                {empty}
              </td>
            </tr>
          )}
          {children}
        </tbody>
      </table>
    </div>
  );
}
