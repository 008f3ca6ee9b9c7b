//! The team's invoices (owner and admins) and the company details Stripe prints on them: the
//! owner edits the billing name, address and a tax ID; a refusal is shown by the field it is about.

import { Building2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { InvoiceList } from "../../../components/billing/InvoiceList";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { getTeamInvoices } from "../../../lib/api/invoices";
import type { BillingDetails, TaxIdType, Team } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { useBillingDetails, useSaveBillingDetails } from "../api/billingDetails";
import { errorMessage, Problem, Section, SelectField } from "./TeamParts";

const TAX_ID_TYPES: { value: TaxIdType; label: string }[] = [
  { value: "eu_vat", label: "EU VAT number" },
  { value: "gb_vat", label: "UK VAT number" },
  { value: "ch_vat", label: "Swiss VAT number" },
  { value: "no_vat", label: "Norwegian VAT number" },
  { value: "au_abn", label: "Australian Business Number" },
  { value: "nz_gst", label: "New Zealand GST number" },
  { value: "ca_bn", label: "Canadian Business Number" },
  { value: "us_ein", label: "US Employer Identification Number" },
];

/** Which field a refusal's code is about. */
const FIELD_OF: Record<string, Field> = {
  invalid_billing_name: "name",
  invalid_country: "country",
  invalid_address: "address",
  invalid_tax_id: "tax_id",
};
type Field = "name" | "country" | "address" | "tax_id";

type Form = {
  name: string;
  line1: string;
  line2: string;
  postal_code: string;
  city: string;
  state: string;
  country: string;
  taxType: TaxIdType;
  taxValue: string;
};

function formOf(d: BillingDetails): Form {
  const a = d.address;
  const tax = d.tax_ids[0];
  return {
    ...{ name: d.name ?? "", line1: a.line1 ?? "", line2: a.line2 ?? "", postal_code: a.postal_code ?? "" },
    ...{ city: a.city ?? "", state: a.state ?? "", country: a.country ?? "" },
    ...{ taxType: tax?.type ?? "eu_vat", taxValue: tax?.value ?? "" },
  };
}

function detailsOf(f: Form): BillingDetails {
  const opt = (s: string) => (s.trim() ? s.trim() : null);
  return {
    name: f.name,
    address: {
      line1: opt(f.line1),
      line2: opt(f.line2),
      postal_code: opt(f.postal_code),
      city: opt(f.city),
      state: opt(f.state),
      country: f.country,
    },
    tax_ids: f.taxValue.trim() ? [{ type: f.taxType, value: f.taxValue }] : [],
  };
}

function DetailsForm({ initial, editable }: { initial: BillingDetails; editable: boolean }) {
  const [form, setForm] = useState(() => formOf(initial));
  const [refusal, setRefusal] = useState<{ field: Field | null; message: string } | null>(null);
  const save = useSaveBillingDetails();
  const set = (k: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const errorOf = (field: Field) => (refusal?.field === field ? refusal.message : null);

  function submit(e: FormEvent) {
    e.preventDefault();
    setRefusal(null);
    save.mutate(detailsOf(form), {
      onSuccess: (saved) => {
        setForm(formOf(saved));
        toast.success("Company details saved. Your next invoices show them.");
      },
      onError: (err) =>
        setRefusal({ field: err instanceof ApiError ? (FIELD_OF[err.code] ?? null) : null, message: errorMessage(err) }),
    });
  }

  return (
    <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2" aria-label="Company details">
      <fieldset disabled={!editable || save.isPending} className="contents">
        <TextField
          label="Company name"
          className="sm:col-span-2"
          value={form.name}
          onChange={set("name")}
          error={errorOf("name")}
        />
        <TextField label="Address line 1" value={form.line1} onChange={set("line1")} error={errorOf("address")} />
        <TextField label="Address line 2" value={form.line2} onChange={set("line2")} />
        <TextField label="Postal code" value={form.postal_code} onChange={set("postal_code")} />
        <TextField label="City" value={form.city} onChange={set("city")} />
        <TextField label="State or region" value={form.state} onChange={set("state")} />
        <TextField
          label="Country code"
          placeholder="DE"
          maxLength={2}
          value={form.country}
          onChange={set("country")}
          error={errorOf("country")}
        />
        <SelectField
          label="Tax ID type"
          value={form.taxType}
          onChange={(e) => setForm({ ...form, taxType: e.target.value as TaxIdType })}
        >
          {TAX_ID_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <TextField label="Tax ID" value={form.taxValue} onChange={set("taxValue")} error={errorOf("tax_id")} />
      </fieldset>
      {refusal && refusal.field === null && <Problem className="sm:col-span-2">{refusal.message}</Problem>}
      {editable && (
        <div className="sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save company details"}
          </Button>
        </div>
      )}
    </form>
  );
}

function CompanyDetails({ team }: { team: Team }) {
  const details = useBillingDetails();
  return (
    <Section id="company-details-title" title="Company details on invoices" icon={<Building2 aria-hidden className="h-5 w-5" />}>
      {details.isPending && <p className="mt-4 text-slate-600">Loading company details...</p>}
      {details.error && <Problem className="mt-4">{errorMessage(details.error)}</Problem>}
      {details.data && <DetailsForm initial={details.data} editable={team.may.edit_billing_details} />}
    </Section>
  );
}

/** Shown to those who may see the team's invoices (`may.view_invoices`). */
export function TeamBilling({ team }: { team: Team }) {
  const { user } = useAuth();
  if (!team.may.view_invoices) return null;
  return (
    <>
      <InvoiceList queryKey={["team", user?.id ?? "", "invoices"]} read={getTeamInvoices} />
      <CompanyDetails team={team} />
    </>
  );
}
