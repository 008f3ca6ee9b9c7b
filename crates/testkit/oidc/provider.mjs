// A real, certified OpenID provider (panva's oidc-provider) for the SSO tests (the API's Rust tests
// and the e2e suite), on a free port of 127.0.0.1. Configured by one JSON argument:
//   {"client_id", "client_secret", "redirect_uri", "interactive"?: true,
//    "users": {"ana@acme.example": {"email_verified": true, "password"?: "…", "claims"?: {…}}}}
// A user's claims are `sub`, `email`, `email_verified`, `name` and `preferred_username` (all from
// the address), changed by its `claims` (a null removes one; `upn` as Microsoft Entra ID sends it).
// The provider runs in its default, conformant configuration: with an access token issued, the ID
// token carries only `sub` (and the protocol's own claims), the rest is served by UserInfo.
// It prints `READY <issuer>` once listening. Nothing leaves the machine.
// - Scripted (the default): the interaction signs in the user named by the authorization request's
//   `login_hint` (the first user otherwise) and grants the requested scopes, so a test's HTTP client
//   completes the round trip by following redirects.
// - Interactive: the interaction is a sign-in form (e-mail, prefilled from `login_hint`, and the
//   user's password; a wrong one is refused) and then a consent page, for a person in a browser.
import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';
import { interactive } from './pages.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const users = config.users ?? {};

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };

let provider;
const server = http.createServer(async (req, res) => {
  try {
    if (req.url.startsWith('/interaction/') && config.interactive) {
      await interactive(provider, users, req, res);
      return;
    }
    if (req.url.startsWith('/interaction/')) {
      const details = await provider.interactionDetails(req, res);
      const hint = details.params.login_hint;
      const accountId = hint && users[hint] ? hint : Object.keys(users)[0];
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
      grant.addOIDCScope(details.params.scope);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      return;
    }
    provider.callback()(req, res);
  } catch (e) {
    res.statusCode = 500;
    res.end(String(e));
  }
});

server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  provider = new Provider(issuer, {
    clients: [{
      client_id: config.client_id,
      client_secret: config.client_secret,
      redirect_uris: [config.redirect_uri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['closewise-test-oidc-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username', 'upn'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      if (!users[id]) return undefined;
      return {
        accountId: id,
        async claims() {
          const claims = { sub: id, email: id, email_verified: users[id].email_verified ?? true, name: id, preferred_username: id };
          for (const [k, v] of Object.entries(users[id].claims ?? {})) {
            if (v === null) delete claims[k];
            else claims[k] = v;
          }
          return claims;
        },
      };
    },
  });
  provider.proxy = false;
  console.log(`READY ${issuer}`);
});

process.on('SIGTERM', () => process.exit(0));
