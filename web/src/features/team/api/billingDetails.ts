//! The team's company details: read for owner and admins, written by the owner. A save answers
//! what Stripe then holds, which becomes the cached answer.

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getTeamBillingDetails, putTeamBillingDetails } from "../../../lib/api/invoices";
import type { BillingDetails } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";

const key = (userId: string) => ["team", userId, "billing-details"];

export function useBillingDetails() {
  const { user } = useAuth();
  return useQuery({ queryKey: key(user?.id ?? ""), queryFn: getTeamBillingDetails });
}

export function useSaveBillingDetails() {
  const { user } = useAuth();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (details: BillingDetails) => putTeamBillingDetails(details),
    onSuccess: (saved) => client.setQueryData(key(user?.id ?? ""), saved),
  });
}
