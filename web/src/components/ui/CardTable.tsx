//! Tables on a phone (the team's members and usage, invoices): below the `sm` width each row is a
//! card (its cells one after another, each with its column's name), above it a table. The column
//! headers stay in the document for screen readers at every width.

import type { ReactNode } from "react";
import { cn } from "./cn";

export const cardTable = {
  table: "w-full text-left text-sm",
  /** Visually hidden on a phone, where each cell says its column. */
  head: "border-b border-slate-200 text-slate-500 max-sm:sr-only",
  body: "divide-y divide-slate-100",
  row: "max-sm:flex max-sm:flex-wrap max-sm:items-center max-sm:gap-x-4 max-sm:gap-y-1 max-sm:py-3",
  th: "px-2 py-2 align-bottom font-medium first:pl-0 last:pr-0",
  /** A first cell that is a data cell (Adoption's member): a whole line of the card on a phone. */
  lead: "pl-0 font-medium text-slate-900 max-sm:w-full",
};

/** A row's first cell: the member, a whole line of the card on a phone. */
export function RowHeader({ id, children, className }: { id?: string; children: ReactNode; className?: string }) {
  return (
    <th
      id={id}
      tabIndex={id ? -1 : undefined}
      scope="row"
      className={cn("py-3 pr-2 text-left font-medium text-slate-900 max-sm:block max-sm:w-full max-sm:py-0", className)}
    >
      {children}
    </th>
  );
}

/**
 * A cell; on a phone it shows `label` (its column's name) before its value, as generated content:
 * the cell's text stays its value (the column header names it for screen readers).
 */
export function Cell({ label, children, className }: { label?: string; children: ReactNode; className?: string }) {
  return (
    <td
      data-label={label ? `${label}: ` : undefined}
      className={cn(
        "px-2 py-3 text-slate-700 last:pr-0 max-sm:block max-sm:p-0",
        label && "max-sm:before:whitespace-pre max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]",
        className,
      )}
    >
      {children}
    </td>
  );
}
