import type { TeamPolicyAnswer } from "../../../lib/api/types";

function daysAgo(iso: string, now = Date.now()): string {
  const days = Math.floor((now - new Date(iso).getTime()) / 86_400_000);
  if (days <= 0) return "today";
  return days === 1 ? "1 day ago" : `${days} days ago`;
}

/** "9 of 11 devices on the current policy; 2 last seen 3 days ago" (active devices: seen in 30 days). */
export function adoptionLine(a: TeamPolicyAnswer["adoption"], now = Date.now()): string {
  const devices = a.devices === 1 ? "device" : "devices";
  const head = `${a.current} of ${a.devices} ${devices} on the current policy`;
  if (a.behind === 0 || !a.behind_last_seen_at) return head;
  return `${head}; ${a.behind} last seen ${daysAgo(a.behind_last_seen_at, now)}`;
}

export function PolicyAdoption({ adoption }: { adoption: TeamPolicyAnswer["adoption"] }) {
  return (
    <p role="status" className="mt-2 text-sm text-slate-700">
      {adoptionLine(adoption)}. Apps get a change at their next check (before each call, and at least hourly).
    </p>
  );
}
