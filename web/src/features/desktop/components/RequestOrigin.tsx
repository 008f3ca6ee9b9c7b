/** Where a sign-in request came from, as the API saw it, and its warning when that is not the
 *  approver's network. The API decides `same_network`; the page only says it in words. */
export function requestedFromText(address: string | null) {
  return address ?? "Unknown address";
}

export const OTHER_NETWORK_TEXT =
  "This request came from a different network than yours. If the device is not next to you and you did not start this sign-in yourself, deny it: someone may be trying to get into your account.";

export function OtherNetworkWarning({ address }: { address: string | null }) {
  return (
    <p role="alert" className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <strong>Different network{address ? ` (${address})` : ""}.</strong> {OTHER_NETWORK_TEXT}
    </p>
  );
}
