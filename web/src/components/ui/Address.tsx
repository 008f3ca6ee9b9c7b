/**
 * An e-mail address that wraps after its "@" when it does not fit (`<wbr>`), never between the
 * letters of a word; a part longer than the whole line still breaks rather than overflow.
 */
export function Address({ email, className }: { email: string; className?: string }) {
  const at = email.lastIndexOf("@");
  return (
    <span className={className ? `break-words ${className}` : "break-words"}>
      {at < 0 ? (
        email
      ) : (
        <>
          {email.slice(0, at + 1)}
          <wbr />
          {email.slice(at + 1)}
        </>
      )}
    </span>
  );
}
