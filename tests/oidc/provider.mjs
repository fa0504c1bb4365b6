// An OpenID provider on loopback for siteops' sign-in tests (tests/it/oidc.rs), from the
// npm package oauth2-mock-server: discovery, keys, the authorization endpoint (which
// approves at once, as a provider would after its own sign-in), PKCE and the nonce.
// Every ID token says the person is SIGN_IN_AS, verified unless EMAIL_VERIFIED=false.
// Prints `issuer <url>` once it listens; stops when its standard input closes.
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
server.service.on('beforeTokenSigning', (token) => {
  token.payload.email = process.env.SIGN_IN_AS;
  token.payload.email_verified = process.env.EMAIL_VERIFIED !== 'false';
});
await server.start(0, '127.0.0.1');
// The address it listens on, not `localhost`, which may name ::1 first.
server.issuer.url = `http://127.0.0.1:${server.address().port}`;
console.log(`issuer ${server.issuer.url}`);
process.stdin.on('end', () => server.stop().then(() => process.exit(0)));
process.stdin.resume();
