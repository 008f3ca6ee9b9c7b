//! A list of invoices with their Download links, a page at a time ("Show more invoices"): the
//! dashboard's (the user's own) and the team page's (owner and admins). The caller says where the
//! pages come from; what each invoice says (number, amounts, status, links) is the server's.

import { useInfiniteQuery } from "@tanstack/react-query";
import { FileText } from "lucide-react";
import { Button } from "../ui/Button";
import { Cell, cardTable } from "../ui/CardTable";
import { cn } from "../ui/cn";
import type { Invoice, InvoicesPage } from "../../lib/api/types";

const STATUS: Record<Invoice["status"], string> = {
  paid: "Paid",
  open: "Open",
  draft: "Draft",
  void: "Void",
  uncollectible: "Uncollectible",
};

const day = (seconds: number) =>
  new Date(seconds * 1000).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);

function Row({ invoice }: { invoice: Invoice }) {
  const name = invoice.number ?? invoice.id;
  return (
    <tr className={cn("border-t border-slate-100", cardTable.row)}>
      <Cell className={cardTable.lead}>{name}</Cell>
      <Cell label="Date">{day(invoice.date)}</Cell>
      <Cell label="Period">
        {day(invoice.period_start)} – {day(invoice.period_end)}
      </Cell>
      <Cell label="Amount">{money(invoice.amount, invoice.currency)}</Cell>
      <Cell label="Tax">{invoice.tax ? money(invoice.tax, invoice.currency) : "—"}</Cell>
      <Cell label="Discount">{invoice.discount ? `−${money(invoice.discount, invoice.currency)}` : "—"}</Cell>
      <Cell label="Status">{STATUS[invoice.status]}</Cell>
      <Cell>
        {invoice.invoice_pdf ? (
          <a
            href={invoice.invoice_pdf}
            className="font-medium text-blue-700 underline hover:text-blue-900"
            aria-label={`Download invoice ${name}`}
          >
            Download
          </a>
        ) : (
          "—"
        )}
      </Cell>
    </tr>
  );
}

export function InvoiceList({
  queryKey,
  read,
}: {
  queryKey: readonly unknown[];
  read: (cursor: string | null) => Promise<InvoicesPage>;
}) {
  const pages = useInfiniteQuery({
    queryKey: [...queryKey],
    queryFn: ({ pageParam }) => read(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const invoices = pages.data?.pages.flatMap((p) => p.invoices) ?? [];
  return (
    <section aria-labelledby="invoices-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="invoices-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <FileText aria-hidden className="h-5 w-5" /> Invoices
      </h2>
      {pages.isPending && <p className="mt-4 text-slate-600">Loading invoices...</p>}
      {pages.error && (
        <p role="alert" className="mt-4 text-sm text-red-700">
          {pages.error.message}
        </p>
      )}
      {pages.isSuccess && invoices.length === 0 && <p className="mt-4 text-slate-600">No invoices yet.</p>}
      {invoices.length > 0 && (
        // On a phone each invoice is a card (CardTable.tsx).
        <div className="mt-4 overflow-x-auto">
          <table className={cn(cardTable.table, "text-slate-700")}>
            <thead className={cardTable.head}>
              <tr>
                {["Number", "Date", "Period", "Amount", "Tax", "Discount", "Status", "PDF"].map((h) => (
                  <th key={h} scope="col" className={cardTable.th}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {invoices.map((invoice) => (
                <Row key={invoice.id} invoice={invoice} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages.hasNextPage && (
        <Button
          variant="secondary"
          className="mt-4"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {pages.isFetchingNextPage ? "Loading..." : "Show more invoices"}
        </Button>
      )}
    </section>
  );
}
