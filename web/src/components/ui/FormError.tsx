/**
 * Why a form's submission failed, under the form: it stays after the toast has gone. The form names it
 * with `aria-describedby`; not a live region (the toast already announces the same words).
 */
export function FormError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {message}
    </p>
  );
}
