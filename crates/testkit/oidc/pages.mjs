// The interactive provider's pages (provider.mjs with `"interactive": true`): a sign-in form that
// checks the user's password, then a consent page, as an identity provider shows a person. Plain
// HTML forms posted back to /interaction/<uid>/login and /interaction/<uid>/consent; no script and
// nothing fetched from elsewhere.
import { timingSafeEqual } from 'node:crypto';

const escape = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

function page(res, title, body, status = 200) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>
<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`);
}

function loginForm(res, uid, email, error) {
  page(
    res,
    'Sign in to Test Identity',
    `${error ? `<p role="alert">${escape(error)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
  <label>Email <input type="email" name="email" autocomplete="username" value="${escape(email ?? '')}" required></label>
  <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`,
    error ? 401 : 200,
  );
}

async function form(req) {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  return new URLSearchParams(raw);
}

function samePassword(given, expected) {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected ?? '');
  return expected !== undefined && a.length === b.length && timingSafeEqual(a, b);
}

/** Serves GET /interaction/<uid> and the two POSTs of that interaction. */
export async function interactive(provider, users, req, res) {
  const details = await provider.interactionDetails(req, res);
  const { uid, prompt, params } = details;
  const action = new URL(req.url, 'http://provider').pathname.split('/')[3];
  if (req.method === 'POST' && action === 'login' && prompt.name === 'login') {
    const body = await form(req);
    const email = (body.get('email') ?? '').trim().toLowerCase();
    if (!users[email] || !samePassword(body.get('password'), users[email].password)) {
      loginForm(res, uid, email, 'Wrong email or password.');
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: email } }, { mergeWithLastSubmission: false });
    return;
  }
  if (req.method === 'POST' && action === 'consent' && prompt.name === 'consent') {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: params.client_id });
    grant.addOIDCScope(params.scope);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  if (prompt.name === 'login') {
    loginForm(res, uid, params.login_hint);
    return;
  }
  page(
    res,
    'Allow access',
    `<p>${escape(params.client_id)} asks for your e-mail address and name (${escape(params.scope)}).</p>
<form method="post" action="/interaction/${escape(uid)}/consent"><button type="submit">Allow</button></form>`,
  );
}
