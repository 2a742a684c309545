/** @jsxRuntime automatic */
// The pragma: tests render this file under node through tsx, which reads no tsconfig of ours (the
// build's "jsx": "react-jsx" is in tsconfig.web.json), so esbuild would emit React.createElement.
import type { Key, ReactNode } from 'react';

type DataSet = { [name: `data-${string}`]: string | number | boolean | undefined };

/**
 * Attributes of a row's `<tr>`: the `data-*` hooks the e2e tests select by (`data-testid`,
 * `data-manifest`, …) and a class for per-row styling (`is-missing`, `driver-row-failed`).
 */
export type RowAttributes = DataSet & { className?: string | undefined };

/** Attributes of a cell: `data-*` hooks and a tooltip. */
export type CellAttributes = DataSet & { title?: string | undefined };

/** One column: its header, how a row fills its cell, and the classes both share. */
export interface DataColumn<Row> {
  /** A stable React key for the column (its header is not always a string). */
  id: string;
  /** The header cell's content (`<th scope="col">`); a table whose columns have no header has no `<thead>`. */
  header?: ReactNode;
  /** The cell's content for one row. */
  cell: (row: Row, index: number) => ReactNode;
  /** The row's header cell (`<th scope="row">`): what a screen reader announces the row by. */
  rowHeader?: boolean;
  /** `fit`: the column takes the width of its content (`col-fit`, on the header and every cell). */
  width?: 'fit';
  /** `end`: numbers, right-aligned in tabular figures (`num`, on the header and every cell). */
  align?: 'end';
  /** A class on the header and every cell. */
  className?: string;
  /** A class on the header only (e.g. `col-fit` where the cells may wrap). */
  headerClassName?: string;
  /** A class on the cells only, or per row. */
  cellClassName?: string | ((row: Row, index: number) => string | undefined);
  /** Attributes of each cell (e.g. a `data-testid` an e2e test reads, a `title`). */
  cellAttributes?: (row: Row, index: number) => CellAttributes;
}

/** A table needs an accessible name: `label` (aria-label) or `caption` (a `<caption>` for screen readers only). */
type TableName = { label: string; caption?: never } | { caption: ReactNode; label?: never };

export type DataTableProps<Row> = TableName & {
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  /** React's key for a row. */
  rowKey: (row: Row, index: number) => Key;
  /** Attributes of a row's `<tr>`. */
  rowAttributes?: (row: Row, index: number) => RowAttributes;
  /** Shown instead of the table when there are no rows, as `<p className="card-empty">`. */
  empty?: ReactNode;
  /** `data-testid` of the empty-state paragraph. */
  emptyTestId?: string;
  /** `data-testid` of the `<table>`. */
  testId?: string;
  /** Tighter rows (`table-dense`), for the shader inspector's long tables. */
  dense?: boolean;
  /** More classes on the `<table>` (after `table` and `table-dense`). */
  className?: string;
  /** Wrap the table in `<div className="table-scroll">` so a wide table scrolls inside its card (default true). */
  scroll?: boolean;
  /** More classes on the scroll wrapper. */
  scrollClassName?: string;
};

const classes = (...names: (string | false | undefined)[]): string | undefined => names.filter(Boolean).join(' ') || undefined;

/**
 * The one table of the renderer (issue #16): the `.table` markup every card used to write by hand,
 * with `<th scope="col">` headers, an optional row header per row, and the "None." empty state.
 * It adds nothing focusable: keyboard focus moves through the controls inside the cells as before.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { columns, rows, rowKey, rowAttributes, empty = 'None.', emptyTestId, testId, dense, className, scroll = true, scrollClassName } = props;
  if (rows.length === 0)
    return (
      <p className="card-empty" data-testid={emptyTestId}>
        {empty}
      </p>
    );
  const hasHeader = columns.some((c) => c.header !== undefined);
  const table = (
    <table className={classes('table', dense && 'table-dense', className)} data-testid={testId} aria-label={props.label}>
      {props.caption !== undefined && <caption className="visually-hidden">{props.caption}</caption>}
      {hasHeader && (
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={classes(c.width === 'fit' && 'col-fit', c.align === 'end' && 'num', c.className, c.headerClassName)}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>
        {rows.map((row, i) => (
          <tr key={rowKey(row, i)} {...rowAttributes?.(row, i)}>
            {columns.map((c) => {
              const Cell = c.rowHeader ? 'th' : 'td';
              const own = typeof c.cellClassName === 'function' ? c.cellClassName(row, i) : c.cellClassName;
              return (
                <Cell
                  key={c.id}
                  scope={c.rowHeader ? 'row' : undefined}
                  className={classes(c.width === 'fit' && 'col-fit', c.align === 'end' && 'num', c.className, own)}
                  {...c.cellAttributes?.(row, i)}
                >
                  {c.cell(row, i)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return scroll ? <div className={classes('table-scroll', scrollClassName)}>{table}</div> : table;
}
