/**
 * Why a form's submission failed, under the form, the one place it is said (no toast besides): an
 * alert, so it is announced, and the form names it with `aria-describedby`.
 */
export function FormError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
      {message}
    </p>
  );
}
