import { InvoiceList } from "../../../components/billing/InvoiceList";
import { getInvoices } from "../../../lib/api/invoices";
import { useAuth } from "../../../lib/auth/AuthProvider";

/** The subscriber's own invoices, each with its PDF to download. */
export function Invoices() {
  const { user } = useAuth();
  return <InvoiceList queryKey={["invoices", user?.id ?? ""]} read={getInvoices} />;
}
