import { Button } from "../../../components/ui/Button";
import type { TeamPolicy } from "../../../lib/api/types";
import { SelectField } from "./TeamParts";

type Notice = TeamPolicy["consent_notice"];

const TEXTAREA =
  "block w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 shadow-sm focus:border-blue-600 focus:outline-none focus:ring-2 focus:ring-blue-600/30";

/** The recording-consent notice: off, shown or read aloud; a default text and per-region variants. */
export function ConsentNoticeFields({ notice, onChange }: { notice: Notice; onChange: (n: Notice) => void }) {
  const regions = Object.entries(notice.regions ?? {});
  const setRegions = (entries: [string, string][]) => onChange({ ...notice, regions: Object.fromEntries(entries) });
  return (
    <fieldset className="space-y-3">
      <legend className="font-medium text-slate-900">Recording-consent notice</legend>
      <SelectField
        label="At the start of every call"
        className="max-w-xs"
        value={notice.mode}
        onChange={(e) => onChange({ ...notice, mode: e.target.value as Notice["mode"] })}
      >
        <option value="off">Off</option>
        <option value="show">Show the notice</option>
        <option value="read_aloud">Read the notice aloud</option>
      </SelectField>
      {notice.mode !== "off" && (
        <>
          <label className="block text-sm font-medium text-slate-700">
            Notice (default)
            <textarea
              className={TEXTAREA}
              maxLength={1000}
              rows={3}
              value={notice.text ?? ""}
              onChange={(e) => onChange({ ...notice, text: e.target.value })}
            />
          </label>
          {regions.map(([code, text], i) => (
            <div key={i} className="flex flex-wrap items-start gap-2">
              <label className="text-sm font-medium text-slate-700">
                Region
                <input
                  className={`${TEXTAREA} w-28`}
                  value={code}
                  placeholder="US-CA"
                  onChange={(e) => setRegions(regions.map((r, j) => (j === i ? [e.target.value.toUpperCase(), r[1]] : r)))}
                />
              </label>
              <label className="min-w-64 flex-1 text-sm font-medium text-slate-700">
                Notice for {code || "this region"}
                <textarea
                  className={TEXTAREA}
                  maxLength={1000}
                  rows={2}
                  value={text}
                  onChange={(e) => setRegions(regions.map((r, j) => (j === i ? [r[0], e.target.value] : r)))}
                />
              </label>
              <Button variant="secondary" onClick={() => setRegions(regions.filter((_, j) => j !== i))}>
                Remove
              </Button>
            </div>
          ))}
          <Button variant="secondary" onClick={() => setRegions([...regions, ["", ""]])}>
            Add a regional notice
          </Button>
        </>
      )}
    </fieldset>
  );
}
