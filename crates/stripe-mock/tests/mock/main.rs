//! stripe-mock's integration tests: one binary, one fresh mock per test on port 0.

mod async_stripe;
mod binary;
mod checkout;
mod checkout_company;
mod clock;
mod compat;
mod discounts;
mod dunning;
mod helpers;
mod intervals;
mod invoice_documents;
mod invoices;
mod parameters;
mod portal;
mod portal_configurations;
mod resources;
mod seats;
mod send_invoice;
mod tax;
mod tax_ids;
mod trials;
mod webhooks;
mod wire;
