//! A customer's invoices a page at a time, and its company details (name, address, tax IDs)
//! read and written at Stripe, where the invoices take them from.

use std::str::FromStr;

use closewise_domain::billing_details::BillingDetails;
use stripe::StripeError;
use stripe_billing::invoice::{ListInvoice, RetrieveInvoice};
use stripe_billing::tax_id::{
    CreateCustomerTaxId, CreateCustomerTaxIdType, DeleteCustomerTaxId, ListCustomerTaxId,
};
use stripe_billing::Invoice;
use stripe_core::customer::{
    OptionalFieldsCustomerAddress, RetrieveCustomer, RetrieveCustomerReturned, UpdateCustomer,
};

use super::{StripeClient, StripeFailure};

/// One invoice as the lists show it (amounts in cents).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvoiceSummary {
    pub id: String,
    pub number: Option<String>,
    pub created: i64,
    pub period_start: i64,
    pub period_end: i64,
    pub currency: String,
    pub subtotal: i64,
    pub discount: i64,
    pub tax: i64,
    pub total: i64,
    pub amount_paid: i64,
    pub amount_due: i64,
    pub status: String,
    pub hosted_invoice_url: Option<String>,
    pub invoice_pdf: Option<String>,
}

/// An invoice with how Stripe is collecting it: the attempts so far and the next retry (Unix
/// seconds; None when no retry is left or it is paid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvoiceCollection {
    pub invoice: InvoiceSummary,
    pub attempt_count: u64,
    pub next_payment_attempt: Option<i64>,
}

/// A page of invoices, newest first, and whether Stripe has more after it.
#[derive(Clone, Debug, Default)]
pub struct InvoicePage {
    pub invoices: Vec<InvoiceSummary>,
    pub has_more: bool,
}

/// A customer's company details as Stripe has them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CustomerDetails {
    pub name: Option<String>,
    pub line1: Option<String>,
    pub line2: Option<String>,
    pub city: Option<String>,
    pub postal_code: Option<String>,
    pub state: Option<String>,
    pub country: Option<String>,
    /// (type, value), oldest first.
    pub tax_ids: Vec<(String, String)>,
}

/// Why company details were not written.
#[derive(Debug, thiserror::Error)]
pub enum DetailsFailure {
    /// Stripe refused a tax ID (`tax_id_invalid`); the index is the one in the request.
    #[error("Stripe refused tax ID {index}: {message}")]
    TaxIdRefused { index: usize, message: String },
    #[error(transparent)]
    Stripe(#[from] StripeFailure),
}

fn summary(i: &Invoice) -> InvoiceSummary {
    let sum = |amounts: Option<Vec<i64>>| amounts.unwrap_or_default().iter().sum::<i64>();
    InvoiceSummary {
        id: i
            .id
            .as_ref()
            .map(|id| id.as_str().to_owned())
            .unwrap_or_default(),
        number: i.number.clone(),
        created: i.created,
        period_start: i.period_start,
        period_end: i.period_end,
        currency: i.currency.to_string(),
        subtotal: i.subtotal,
        discount: sum(i
            .total_discount_amounts
            .as_ref()
            .map(|d| d.iter().map(|d| d.amount).collect())),
        tax: sum(i
            .total_taxes
            .as_ref()
            .map(|t| t.iter().map(|t| t.amount).collect())),
        total: i.total,
        amount_paid: i.amount_paid,
        amount_due: i.amount_due,
        status: i
            .status
            .as_ref()
            .map_or("draft".to_owned(), |s| s.as_str().to_owned()),
        hosted_invoice_url: i.hosted_invoice_url.clone(),
        invoice_pdf: i.invoice_pdf.clone(),
    }
}

impl StripeClient {
    /// One invoice, read back with its collection (a failed payment's attempts and next retry).
    pub async fn invoice(&self, id: &str) -> Result<InvoiceCollection, StripeFailure> {
        let i = self
            .call(
                "retrieve invoice",
                RetrieveInvoice::new(id).send(&self.client),
            )
            .await?;
        Ok(InvoiceCollection {
            invoice: summary(&i),
            attempt_count: i.attempt_count,
            next_payment_attempt: i.next_payment_attempt,
        })
    }

    /// A page of the customer's invoices, newest first, after the invoice `starting_after`.
    pub async fn invoices(
        &self,
        customer: &str,
        starting_after: Option<&str>,
        limit: u8,
    ) -> Result<InvoicePage, StripeFailure> {
        let mut list = ListInvoice::new()
            .customer(customer)
            .limit(i64::from(limit));
        if let Some(after) = starting_after {
            list = list.starting_after(after);
        }
        let page = self.call("list invoices", list.send(&self.client)).await?;
        Ok(InvoicePage {
            invoices: page.data.iter().map(summary).collect(),
            has_more: page.has_more,
        })
    }

    pub async fn customer_details(&self, customer: &str) -> Result<CustomerDetails, StripeFailure> {
        let c = match self
            .call(
                "retrieve customer",
                RetrieveCustomer::new(customer).send(&self.client),
            )
            .await?
        {
            RetrieveCustomerReturned::Customer(c) => c,
            RetrieveCustomerReturned::DeletedCustomer(_) => return Err(StripeFailure::NotFound),
        };
        let ids = self
            .call(
                "list tax ids",
                ListCustomerTaxId::new(customer)
                    .limit(100)
                    .send(&self.client),
            )
            .await?;
        let mut tax_ids: Vec<_> = ids.data.iter().collect();
        tax_ids.sort_by_key(|t| t.created);
        let take = |v: Option<String>| v.filter(|s| !s.is_empty());
        let (line1, line2, city, postal_code, state, country) = match c.address {
            Some(a) => (
                take(a.line1),
                take(a.line2),
                take(a.city),
                take(a.postal_code),
                take(a.state),
                take(a.country),
            ),
            None => Default::default(),
        };
        Ok(CustomerDetails {
            name: c.name,
            line1,
            line2,
            city,
            postal_code,
            state,
            country,
            tax_ids: tax_ids
                .into_iter()
                .map(|t| (t.type_.as_str().to_owned(), t.value.clone()))
                .collect(),
        })
    }

    /// Writes the name and address, then makes the tax IDs those of `details`: the ones already
    /// there are kept (Stripe's verification stays), the others deleted or created.
    pub async fn set_customer_details(
        &self,
        customer: &str,
        details: &BillingDetails,
    ) -> Result<(), DetailsFailure> {
        let a = &details.address;
        let address = OptionalFieldsCustomerAddress {
            line1: Some(a.line1.clone().unwrap_or_default()),
            line2: Some(a.line2.clone().unwrap_or_default()),
            city: Some(a.city.clone().unwrap_or_default()),
            postal_code: Some(a.postal_code.clone().unwrap_or_default()),
            state: Some(a.state.clone().unwrap_or_default()),
            country: Some(a.country.clone()),
        };
        self.call(
            "update customer",
            UpdateCustomer::new(customer)
                .name(details.name.clone())
                .address(address)
                .send(&self.client),
        )
        .await?;
        let existing = self
            .call(
                "list tax ids",
                ListCustomerTaxId::new(customer)
                    .limit(100)
                    .send(&self.client),
            )
            .await?;
        let wanted: Vec<(&str, &str)> = details
            .tax_ids
            .iter()
            .map(|t| (t.kind().as_str(), t.value()))
            .collect();
        for old in &existing.data {
            if !wanted.contains(&(old.type_.as_str(), old.value.as_str())) {
                self.call(
                    "delete tax id",
                    DeleteCustomerTaxId::new(customer, old.id.as_str()).send(&self.client),
                )
                .await?;
            }
        }
        for (index, (kind, value)) in wanted.iter().enumerate() {
            let present = existing
                .data
                .iter()
                .any(|t| t.type_.as_str() == *kind && t.value == *value);
            if present {
                continue;
            }
            let kind = CreateCustomerTaxIdType::from_str(kind).unwrap_or_else(|e| match e {});
            let sent = CreateCustomerTaxId::new(customer, kind, *value)
                .send(&self.client)
                .await;
            if let Err(StripeError::Stripe(api, _)) = &sent {
                if api.code.as_ref().map(|c| c.as_str()) == Some("tax_id_invalid") {
                    return Err(DetailsFailure::TaxIdRefused {
                        index,
                        message: api.message.clone().unwrap_or_default(),
                    });
                }
            }
            self.call("create tax id", async { sent }).await?;
        }
        Ok(())
    }
}
