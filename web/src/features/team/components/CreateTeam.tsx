import { Users } from "lucide-react";
import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import { Button } from "../../../components/ui/Button";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import { useCreateTeam } from "../api/teamMutations";
import { errorMessage, Problem, Section } from "./TeamParts";

/** For someone in no team: name a team and become its owner. */
export function CreateTeam() {
  const create = useCreateTeam();
  const [name, setName] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending || create.isSuccess;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFieldError(null);
    setError(null);
    // The promise, not mutate's own callbacks: this form goes away as soon as the team is in the cache.
    // Already in a team (created in another tab, or an invite accepted): the hook reads it again.
    void create.mutateAsync(name.trim()).then(
      ({ team }) => toast.success(`${team.name} is created`),
      (e: unknown) => {
        if (e instanceof ApiError && e.code === "invalid_team_name") setFieldError(e.message);
        else setError(errorMessage(e));
      },
    );
  }

  return (
    <Section id="create-team-title" title="Create a team" icon={<Users aria-hidden className="h-5 w-5" />}>
      <p className="mt-2 text-slate-600">
        Give your sales team one subscription: buy a seat for each person, invite them by e-mail and see everyone&apos;s calls in
        one place. You become the team&apos;s owner.
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-4 max-w-md space-y-4">
        <TextField
          label="Team name"
          name="team-name"
          autoComplete="organization"
          maxLength={80}
          placeholder="Northwind Sales"
          value={name}
          error={fieldError}
          onChange={(e) => setName(e.target.value)}
        />
        {error && <Problem>{error}</Problem>}
        <Button type="submit" disabled={busy} aria-busy={busy}>
          {busy ? "Creating..." : "Create team"}
        </Button>
      </form>
    </Section>
  );
}
