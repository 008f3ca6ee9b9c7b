import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, type ReactNode, type SelectHTMLAttributes } from "react";
import { Button } from "../../../components/ui/Button";
import { Select } from "../../../components/ui/Select";
import { ApiError } from "../../../lib/api/client";
import type { Team } from "../../../lib/api/types";
import { useAuth } from "../../../lib/auth/AuthProvider";
import { teamAnswered } from "../api/mutations";

export const errorMessage = (error: unknown) => (error instanceof ApiError ? error.message : "An unexpected error occurred");

/**
 * Puts the team an action answered into the cache (or null once the caller left it), and reads
 * entitlements and the plan's decisions again: a seat gained or lost changes the plan.
 */
export function useTeamCache() {
  const client = useQueryClient();
  const { user } = useAuth();
  return {
    set(team: Team | null) {
      teamAnswered(client, user?.id ?? "", team);
    },
    /** After a refusal that may mean the page is out of date (someone else changed the team). */
    refresh() {
      return client.invalidateQueries({ queryKey: ["team"] });
    },
  };
}

/** The page's `h1` ("Team"): focus goes there when the team view it was in goes away. */
export const TEAM_PAGE_HEADING = "team-page-title";

/** A card with a level-2 heading that names its region. */
export function Section({
  id,
  title,
  icon,
  children,
  tone = "plain",
}: {
  id: string;
  title: string;
  icon?: ReactNode;
  children: ReactNode;
  tone?: "plain" | "danger";
}) {
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl border bg-white p-6 shadow-sm ${tone === "danger" ? "border-red-200" : "border-slate-200"}`}
    >
      {/* tabIndex -1: focus lands here when a dialog closes and the button that opened it is gone. */}
      <h2
        id={id}
        tabIndex={-1}
        className={`flex items-center gap-2 text-lg font-semibold ${tone === "danger" ? "text-red-700" : "text-slate-900"}`}
      >
        {icon}
        {title}
      </h2>
      {children}
    </section>
  );
}

/** An error the user should hear about at once (a live region). */
export function Problem({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={`rounded-xl border border-red-300 bg-red-50 p-3 text-sm text-red-900 ${className}`}>
      {children}
    </p>
  );
}

/** A labelled select, styled like TextField. */
export function SelectField({
  label,
  className,
  children,
  ...props
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> & { label: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <Select id={id} className="w-full py-2.5" {...props}>
        {children}
      </Select>
    </div>
  );
}

export function shortDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

type MoreList<Row> = { rows: Row[]; hasMore: boolean; loading: boolean; error: unknown; showMore: () => void };

/**
 * "Show more …" under a list the team answered the first page of (api/lists.ts), and how many are
 * shown of how many, in a live region. Focus moves to the first row a new page adds (`focusId`):
 * the button goes once the list is whole.
 */
export function ShowMore<Row>({
  list,
  total,
  noun,
  label,
  focusId,
}: {
  list: MoreList<Row>;
  total: number;
  noun: string;
  label: string;
  focusId: (row: Row) => string;
}) {
  const from = useRef<number | null>(null);
  useEffect(() => {
    const first = from.current === null ? undefined : list.rows[from.current];
    if (first === undefined) return;
    from.current = null;
    document.getElementById(focusId(first))?.focus();
  }, [list.rows, focusId]);
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3">
      <p role="status" className="text-sm text-slate-600">
        Showing {list.rows.length} of {total} {noun}.
      </p>
      {list.error ? <Problem>{errorMessage(list.error)}</Problem> : null}
      {list.hasMore && (
        <Button
          variant="secondary"
          disabled={list.loading}
          aria-busy={list.loading}
          onClick={() => {
            from.current = list.rows.length;
            list.showMore();
          }}
        >
          {label}
        </Button>
      )}
    </div>
  );
}
