import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/Button";
import { Choice } from "../../../components/ui/Choice";
import { TextField } from "../../../components/ui/TextField";
import { ApiError } from "../../../lib/api/client";
import type { NewEventStream } from "../../../lib/api/streams";
import type { Guard } from "../../../lib/api/mutations";
import { STREAM_EVENTS, useCreateStream } from "../api/streams";
import { errorMessage, Problem, SelectField } from "./TeamParts";

export const STREAM_KINDS: Record<NewEventStream["kind"], string> = {
  https: "HTTPS endpoint",
  splunk_hec: "Splunk HEC",
  datadog: "Datadog",
};

const URL_CODES = ["invalid_stream_url"];
const TOKEN_CODES = ["stream_token_required", "stream_token_not_allowed"];

/**
 * The form that adds a destination: kind, URL, the Splunk HEC or Datadog token, and the events it
 * subscribes to (all of them when none is ticked). `onSecret` gets an https stream's signing secret.
 */
export function AddStream({ guard, onSecret }: { guard: Guard; onSecret: (secret: string) => void }) {
  const create = useCreateStream(guard);
  const [kind, setKind] = useState<NewEventStream["kind"]>("https");
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const signed = kind === "https";

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const created = await create.mutateAsync({
        kind,
        url: url.trim(),
        ...(signed ? {} : { token }),
        ...(events.length > 0 ? { events } : {}),
      });
      if (created.secret) onSecret(created.secret);
      setUrl("");
      setToken("");
      setEvents([]);
    } catch (caught) {
      setError({ code: caught instanceof ApiError ? caught.code : "", message: errorMessage(caught) });
    }
  }

  const at = (codes: string[]) => (error && codes.includes(error.code) ? error.message : null);
  const elsewhere = error && !URL_CODES.includes(error.code) && !TOKEN_CODES.includes(error.code) ? error.message : null;
  const toggle = (event: string) => setEvents((now) => (now.includes(event) ? now.filter((e) => e !== event) : [...now, event]));

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} aria-label="Add an event stream" className="mt-6 space-y-3">
      <h3 className="font-semibold text-slate-900">Add a destination</h3>
      <SelectField
        label="Kind"
        value={kind}
        onChange={(e) => setKind(e.target.value as NewEventStream["kind"])}
        className="max-w-md"
      >
        {Object.entries(STREAM_KINDS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <TextField
        label="URL"
        name="stream-url"
        type="url"
        className="max-w-md"
        placeholder={signed ? "https://hooks.example.com/closewise" : ""}
        value={url}
        error={at(URL_CODES)}
        onChange={(e) => setUrl(e.target.value)}
      />
      {!signed && (
        <TextField
          label="Token"
          name="stream-token"
          type="password"
          autoComplete="off"
          className="max-w-md"
          value={token}
          error={at(TOKEN_CODES)}
          onChange={(e) => setToken(e.target.value)}
        />
      )}
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Events (none ticked: all of them)</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {STREAM_EVENTS.map((event) => (
            <Choice
              key={event}
              className="text-sm"
              label={event}
              checked={events.includes(event)}
              onChange={() => toggle(event)}
            />
          ))}
        </div>
      </fieldset>
      {signed && at(TOKEN_CODES) && <Problem>{at(TOKEN_CODES)}</Problem>}
      {elsewhere && <Problem>{elsewhere}</Problem>}
      <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
        {create.isPending ? "Adding..." : "Add stream"}
      </Button>
    </form>
  );
}
