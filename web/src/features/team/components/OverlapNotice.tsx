import { AlertTriangle } from "lucide-react";
import { useState } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { openBillingPortal } from "../../../lib/api/billing";
import { redirect } from "../../../lib/redirect";
import { errorMessage } from "./TeamParts";

/** The caller pays personally while their team's seat already gives them the paid plan. */
export function OverlapNotice({ teamName }: { teamName: string }) {
  const [opening, setOpening] = useState(false);
  async function open() {
    setOpening(true);
    try {
      const { url } = await openBillingPortal(`${window.location.origin}/team`);
      redirect.to(url);
    } catch (error) {
      toast.error(errorMessage(error));
      setOpening(false);
    }
  }
  return (
    <section aria-labelledby="overlap-title" className="rounded-2xl border border-amber-300 bg-amber-50 p-6 text-amber-950">
      <h2 id="overlap-title" className="flex items-center gap-2 text-lg font-semibold">
        <AlertTriangle aria-hidden className="h-5 w-5" /> You are paying twice
      </h2>
      <p className="mt-2 text-sm">
        Your seat in {teamName} already gives you the paid plan, and you also pay for a personal subscription. Cancel the personal
        one in the billing portal to stop paying for it.
      </p>
      <Button variant="secondary" className="mt-4" disabled={opening} aria-busy={opening} onClick={() => void open()}>
        {opening ? "Opening..." : "Cancel personal subscription"}
      </Button>
    </section>
  );
}
