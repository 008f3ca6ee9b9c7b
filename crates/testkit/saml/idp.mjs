// A real SAML 2.0 identity provider (samlify) for the SAML single sign-on tests (the API's Rust
// tests and the e2e suite), on a free port of 127.0.0.1. Configured by one JSON argument:
//   {"sp_metadata": "<EntityDescriptor …>" (our SP's metadata, as GET /api/auth/saml/{team}/metadata
//    answers it), "users": {"ana@acme.example": {"attributes"?: {"mail": "…"}}},
//    "cert_days"?: how many days its certificates are valid (30 unless given)}
// It prints `READY <base URL>` once listening. Nothing leaves the machine.
// - GET /metadata: the IdP's metadata (entity ID `<base>/metadata`, the HTTP-Redirect SSO URL
//   `<base>/sso`, its signing certificate); `?cert=other`: another key's certificate instead (a
//   response then fails its signature check); `?cert=both`: the other and then the real one
//   (a rotation). Without `cert`, what GET /control last chose.
// - GET /control?cert=real|other|both&fail=0|1: what GET /metadata without `cert` serves from now
//   on, or (fail=1) that it answers 500 (the daily re-read of metadata by URL).
// - GET /sso?SAMLRequest=…&RelayState=…: the SP-initiated sign-in (HTTP-Redirect binding). It signs
//   in the user `user` names (the first user otherwise) at once and answers the HTTP-POST binding's
//   page: a form to the ACS with `SAMLResponse` and `RelayState`, sent by script. Test knobs:
//   `audience=` another audience; `expired=1` an assertion whose validity ended ten minutes ago.
// - GET /initiate?user=…: an IdP-initiated response (no request, no InResponseTo).
// The assertion is signed (our SP metadata says WantAssertionsSigned) with RSA-SHA256.
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import samlify from 'samlify';

const config = JSON.parse(process.argv[2] ?? '{}');
const users = config.users ?? {};

// The request's XML is ours, checked by the SP's own tests; this IdP only reads its ID.
samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });

/** A fresh RSA key and a self-signed certificate for it (PEM), made with the openssl command. */
function keyPair(name) {
  const dir = mkdtempSync(join(tmpdir(), 'closewise-saml-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', String(config.cert_days ?? 30),
      '-subj', `/CN=${name}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const real = keyPair('Closewise test IdP');
const other = keyPair('Another IdP');
const sp = samlify.ServiceProvider({ metadata: config.sp_metadata });

const escape = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

let base;
let idp;
let otherIdp;
// What GET /metadata serves without `cert` (GET /control changes it).
const served = { cert: 'real', fail: false };

function identityProvider(pair) {
  return samlify.IdentityProvider({
    entityID: `${base}/metadata`,
    privateKey: pair.key,
    signingCert: pair.cert,
    requestSignatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: `${base}/sso` }],
    loginResponseTemplate: {
      context: samlify.SamlLib.defaultLoginResponseTemplate.context,
      attributes: [],
    },
  });
}

/** The login response for `email`, with the test's knobs, as samlify's template fills it. */
function replacement(email, requestId, query) {
  return (template) => {
    const now = new Date();
    const minutes = (m) => new Date(now.getTime() + m * 60_000).toISOString();
    const expired = query.get('expired') === '1';
    const acs = sp.entityMeta.getAssertionConsumerService('post');
    const id = `_${crypto.randomUUID()}`;
    const attributes = users[email]?.attributes ?? {};
    const attributeStatement = Object.keys(attributes).length
      ? `<saml:AttributeStatement>${Object.entries(attributes).map(([name, value]) =>
        `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${escape(value)}</saml:AttributeValue></saml:Attribute>`).join('')}</saml:AttributeStatement>`
      : '';
    const values = {
      ID: id,
      AssertionID: `_${crypto.randomUUID()}`,
      Destination: acs,
      Audience: query.get('audience') ?? sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: `${base}/metadata`,
      IssueInstant: expired ? minutes(-20) : now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: expired ? minutes(-20) : minutes(-5),
      ConditionsNotOnOrAfter: expired ? minutes(-10) : minutes(5),
      SubjectConfirmationDataNotOnOrAfter: expired ? minutes(-10) : minutes(5),
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: email,
      InResponseTo: requestId ?? '',
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: attributeStatement,
    };
    let context = samlify.SamlLib.replaceTagsByValue(template, values);
    if (!requestId) context = context.replace(/ InResponseTo=""/g, '');
    return { id, context };
  };
}

/** The HTTP-POST binding's page: a form to the ACS, sent by script. */
function postPage(res, response, relayState) {
  res.setHeader('content-type', 'text/html; charset=utf-8');
  const relay = relayState ? `<input type="hidden" name="RelayState" value="${escape(relayState)}">` : '';
  res.end(`<!doctype html><html><body><form method="post" action="${escape(response.entityEndpoint)}">` +
    `<input type="hidden" name="SAMLResponse" value="${escape(response.context)}">${relay}` +
    '<noscript><button type="submit">Continue</button></noscript></form>' +
    '<script>document.forms[0].submit()</script></body></html>');
}

function userOf(query) {
  const named = query.get('user');
  return named && users[named] !== undefined ? named : named ?? Object.keys(users)[0];
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, base);
    const query = url.searchParams;
    if (url.pathname === '/control') {
      if (query.has('cert')) served.cert = query.get('cert');
      if (query.has('fail')) served.fail = query.get('fail') === '1';
      return res.end('ok');
    }
    if (url.pathname === '/metadata') {
      if (!query.has('cert') && served.fail) {
        res.statusCode = 500;
        return res.end('metadata unavailable');
      }
      res.setHeader('content-type', 'application/samlmetadata+xml');
      const cert = query.get('cert') ?? served.cert;
      if (cert === 'other') return res.end(otherIdp.getMetadata());
      if (cert === 'both') {
        const extra = otherIdp.getMetadata().match(/<(\w+:)?KeyDescriptor[\s\S]*?<\/(\w+:)?KeyDescriptor>/)[0];
        return res.end(idp.getMetadata().replace(/<(\w+:)?KeyDescriptor/, (m) => `${extra}${m}`));
      }
      return res.end(idp.getMetadata());
    }
    if (url.pathname === '/sso') {
      const request = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(query) });
      const email = userOf(query);
      const response = await idp.createLoginResponse(sp, request, 'post', { email },
        replacement(email, request.extract.request.id, query));
      return postPage(res, response, query.get('RelayState'));
    }
    if (url.pathname === '/initiate') {
      const email = userOf(query);
      const response = await idp.createLoginResponse(sp, {}, 'post', { email }, replacement(email, null, query));
      return postPage(res, response, null);
    }
    res.statusCode = 404;
    res.end('not found');
  } catch (e) {
    res.statusCode = 500;
    res.end(String(e?.stack ?? e));
  }
});

server.listen(0, '127.0.0.1', () => {
  base = `http://127.0.0.1:${server.address().port}`;
  idp = identityProvider(real);
  otherIdp = identityProvider(other);
  console.log(`READY ${base}`);
});

process.on('SIGTERM', () => process.exit(0));
