import { useId } from "react";
import { Choice } from "../../../components/ui/Choice";

export const NO_DOMAIN = "Verify a company domain first: single sign-on signs in addresses at your verified domains.";
export const NO_CONNECTION = "Save the connection first: Require SSO needs a working connection to your identity provider.";

/** "Require SSO", disabled with the reason said (`whyNot`) while there is no verified domain or no connection. */
export function RequireSso({
  domains,
  checked,
  onChange,
  whyNot,
}: {
  domains: string[];
  checked: boolean;
  onChange: (on: boolean) => void;
  whyNot: string | null;
}) {
  const reason = useId();
  return (
    <div>
      <Choice
        label={domains.length > 0 ? `Require SSO for ${domains.join(", ")} (you keep your password as a way in)` : "Require SSO"}
        checked={checked}
        disabled={whyNot !== null}
        aria-describedby={whyNot ? reason : undefined}
        onChange={(e) => onChange(e.target.checked)}
      />
      {whyNot && (
        <p id={reason} className="ml-8 text-sm text-slate-600">
          {whyNot}
        </p>
      )}
    </div>
  );
}
