// Test corpus for the scrubber. Every secret here is FAKE, and each is assembled by concatenation so
// that no secret scanner (or push protection) takes this file for a leak.

/** A text holding a secret, and the secret's distinctive core, which must not survive scrubbing. */
export interface SecretCase {
  readonly name: string;
  readonly text: string;
  readonly secret: string;
  /** The exact scrubbed text, where the format matters. */
  readonly expected?: string;
}

const j = (...parts: string[]): string => parts.join('');
const hex32 = '0123456789abcdef'.repeat(2);
const AKIA = j('AKIA', 'FAKEFAKEFAKE1234');
const ASIA = j('ASIA', 'ZZZZFAKE00001111');
const AWS_SECRET = j('wJalrXUtnFEMI/K7MDENG/', 'bPxRfiCYFAKEFAKEKEY0');
const AIZA = j('AIza', 'SyFAKE-fake_FAKEfakeFAKEfake0123456');
const GHP = j('ghp_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234');
const JWT = j('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiJmYWtlMTIzIn0', '.', 'ZmFrZS1zaWduYXR1cmUtRkFLRQ');
const PEM_BODY = j('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 'FAKEFAKEFAKEkeymaterialFAKE0123');
const pem = (label: string, nl: string): string =>
  j(
    '-----BEGIN ',
    label,
    'PRIVATE KEY-----',
    nl,
    PEM_BODY,
    nl,
    'c2Vjb25kRkFLRWxpbmU=',
    nl,
    '-----END ',
    label,
    'PRIVATE KEY-----',
  );

/** Distinctive token shapes, each in a realistic setting. */
const TOKENS: SecretCase[] = [
  { name: 'aws access key in ini', text: `aws_access_key_id = ${AKIA}`, secret: AKIA },
  { name: 'aws sts key exported', text: `export AWS_ACCESS_KEY_ID=${ASIA}`, secret: ASIA },
  { name: 'aws access key in prose', text: `I found ${AKIA} in the logs`, secret: AKIA },
  {
    name: 'aws access key in json',
    text: `{"AccessKeyId":"${ASIA}","Expiration":"2026-01-01"}`,
    secret: ASIA,
  },
  { name: 'gcp key in url', text: `https://maps.googleapis.com/maps/api/js?key=${AIZA}&v=3`, secret: AIZA },
  { name: 'gcp key in firebase config', text: `const firebaseConfig = { apiKey: "${AIZA}" };`, secret: AIZA },
  { name: 'github classic pat', text: `git clone https://${GHP}@github.com/o/r.git`, secret: GHP },
  {
    name: 'github oauth',
    text: j('token gho_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake5678'),
    secret: j('gho_', 'FAKEfakeFAKEfake'),
  },
  {
    name: 'github user-to-server',
    text: j('GH=ghu_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake9012'),
    secret: j('ghu_', 'FAKEfakeFAKEfake'),
  },
  {
    name: 'github server-to-server',
    text: j('x-access-token:ghs_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake3456'),
    secret: j('ghs_', 'FAKEfakeFAKEfake'),
  },
  {
    name: 'github refresh',
    text: j('"refresh": "ghr_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake7890"'),
    secret: j('ghr_', 'FAKEfakeFAKEfake'),
  },
  {
    name: 'github fine-grained',
    text: j('github_pat_', '11FAKEFAKE0_fakefakefakefakeFAKEFAKEfake'),
    secret: 'fakefakefakefakeFAKEFAKEfake',
  },
  {
    name: 'gitlab pat',
    text: j('PRIVATE-TOKEN: glpat-', 'FAKEfakeFAKEfake1234'),
    secret: 'FAKEfakeFAKEfake1234',
  },
  {
    name: 'slack bot',
    text: j('SLACK_BOT=xoxb-', '123456789012-1234567890123-FAKEfakeFAKEfake'),
    secret: 'FAKEfakeFAKEfake',
  },
  { name: 'slack user', text: j('xoxp-', '123456789012-1234567890123-FAKEfake0000'), secret: 'FAKEfake0000' },
  { name: 'slack app-level', text: j('xoxa-', '2-FAKEfake1234567890'), secret: 'FAKEfake1234567890' },
  { name: 'slack refresh', text: j('xoxr-', 'FAKEfake1234567890'), secret: 'FAKEfake1234567890' },
  { name: 'slack legacy', text: j('xoxs-', 'FAKEfake0987654321'), secret: 'FAKEfake0987654321' },
  {
    name: 'slack webhook',
    text: j('POST https://hooks.slack.com/services/', 'T000FAKE/B000FAKE/XXXXfakeXXXXfake'),
    secret: 'XXXXfakeXXXXfake',
  },
  {
    name: 'stripe live',
    text: j('Stripe.apiKey = "sk_live_', 'FAKEfakeFAKEfake12345678";'),
    secret: 'FAKEfakeFAKEfake12345678',
  },
  {
    name: 'stripe test',
    text: j('sk_test_', 'FAKEfakeFAKEfake87654321'),
    secret: 'FAKEfakeFAKEfake87654321',
  },
  {
    name: 'stripe restricted',
    text: j('rk_live_', 'FAKEfakeFAKEfake11112222'),
    secret: 'FAKEfakeFAKEfake11112222',
  },
  {
    name: 'stripe webhook secret',
    text: j('endpoint whsec_', 'FAKEfakeFAKEfakeFAKEfake1234'),
    secret: 'FAKEfakeFAKEfakeFAKEfake1234',
  },
  {
    name: 'openai legacy',
    text: j('OPENAI=sk-', 'FAKEfakeFAKEfakeFAKEfake1234FAKEfake5678'),
    secret: 'FAKEfakeFAKEfakeFAKEfake1234',
  },
  {
    name: 'openai project',
    text: j('use sk-proj-', 'FAKE_fake-FAKEfakeFAKEfake1234 now'),
    secret: 'FAKE_fake-FAKEfakeFAKEfake1234',
  },
  {
    name: 'anthropic',
    text: j('ANTHROPIC=sk-ant-', 'api03-FAKEfakeFAKEfake-FAKEfake'),
    secret: 'api03-FAKEfakeFAKEfake-FAKEfake',
  },
  {
    name: 'npm in npmrc',
    text: j('//registry.npmjs.org/:_authToken=npm_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234'),
    secret: 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234',
  },
  {
    name: 'engram team token in prose',
    text: j('the team token is now egr_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfa1a2b3c, keep it safe'),
    secret: 'FAKEfakeFAKEfakeFAKEfakeFAKEfa1a2b3c',
    expected: 'the team token is now [REDACTED:engram-token], keep it safe',
  },
  {
    name: 'pypi in pypirc',
    text: j(
      '[pypi]\nusername = __token__\npassword = pypi-',
      'AgEIcHlwaS5vcmcFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKE',
    ),
    secret: 'AgEIcHlwaS5vcmcFAKEfakeFAKEfake',
  },
  { name: 'twilio api key', text: j('twilio key SK', hex32), secret: j('SK', hex32) },
  {
    name: 'twilio auth token',
    text: `TWILIO_AUTH_TOKEN=${'fedcba9876543210'.repeat(2)}`,
    secret: 'fedcba9876543210',
  },
  {
    name: 'sendgrid',
    text: j('SG.', 'FAKEfakeFAKEfake1234', '.', 'FAKEfakeFAKEfake5678abcd'),
    secret: 'FAKEfakeFAKEfake5678abcd',
  },
  {
    name: 'hugging face',
    text: j('huggingface-cli login --token hf_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake12'),
    secret: 'FAKEfakeFAKEfakeFAKEfakeFAKEfake12',
  },
  {
    name: 'google oauth',
    text: j('access ya29.', 'a0FAKEfakeFAKEfakeFAKEfake-x'),
    secret: 'a0FAKEfakeFAKEfakeFAKEfake',
  },
  {
    name: 'discord bot',
    text: j(
      'client.login("N',
      'FAKEfake0123456789FAKEfa',
      '.',
      'GfAkE1',
      '.',
      'FAKEfakeFAKEfake0123456789abc")',
    ),
    secret: 'FAKEfakeFAKEfake0123456789abc',
  },
  {
    name: 'shopify',
    text: j('X-Shopify-Access-Token: shpat_', 'abcdef0123456789abcdef0123456789'),
    secret: 'abcdef0123456789abcdef0123456789',
  },
  { name: 'digitalocean', text: j('doctl auth init -t dop_v1_', hex32, hex32), secret: hex32 + hex32 },
  {
    name: 'doppler',
    text: j('DOPPLER=dp.st.', 'dev.FAKEfakeFAKEfakeFAKE'),
    secret: 'dev.FAKEfakeFAKEfakeFAKE',
  },
  {
    name: 'vault',
    text: j('VAULT=hvs.', 'CAESIFAKEfakeFAKEfakeFAKEfake'),
    secret: 'CAESIFAKEfakeFAKEfakeFAKEfake',
  },
  {
    name: 'age',
    text: j('AGE-SECRET-KEY-1', 'FAKEFAKEFAKE'.repeat(4), '0123456789'),
    secret: 'FAKEFAKEFAKEFAKEFAKEFAKE',
  },
  { name: 'jwt bare', text: `token ${JWT}`, secret: JWT },
  { name: 'jwt in cookie', text: `Cookie: session=${JWT}; theme=dark`, secret: JWT },
  { name: 'jwt in json', text: `{"id_token":"${JWT}"}`, secret: JWT },
  { name: 'jwt in query', text: `https://app.example.com/cb?jwt=${JWT}&x=1`, secret: JWT },
];

const PEMS: SecretCase[] = [
  {
    name: 'pem rsa',
    text: `key:\n${pem('RSA ', '\n')}\ndone`,
    secret: PEM_BODY,
    expected: 'key:\n[REDACTED:private-key]\ndone',
  },
  { name: 'pem ec', text: pem('EC ', '\n'), secret: PEM_BODY, expected: '[REDACTED:private-key]' },
  { name: 'pem openssh', text: pem('OPENSSH ', '\r\n'), secret: PEM_BODY },
  { name: 'pem encrypted', text: pem('ENCRYPTED ', '\n'), secret: PEM_BODY },
  { name: 'pem pkcs8', text: pem('', '\n'), secret: PEM_BODY },
  { name: 'pem dsa escaped', text: pem('DSA ', '\\n'), secret: PEM_BODY },
  {
    name: 'gcp service account json',
    text: `{"type":"service_account","private_key_id":"${hex32}","private_key":"${pem('', '\\n')}\\n","client_email":"x@y.iam.gserviceaccount.com"}`,
    secret: PEM_BODY,
  },
  {
    name: 'pem unterminated',
    text: j('-----BEGIN PRIVATE KEY-----\n', PEM_BODY, '\nc2Vj'),
    secret: PEM_BODY,
  },
  {
    name: 'pgp private block',
    text: j(
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBFAKEpgp',
      PEM_BODY,
      '\n=FAKE\n-----END PGP PRIVATE KEY BLOCK-----',
    ),
    secret: 'lQOYBFAKEpgp',
  },
];

/** Secrets that are secrets by their context: URLs, headers, assignments, flags, prose. */
const IN_CONTEXT: SecretCase[] = [
  {
    name: 'postgres url',
    text: 'postgres://admin:pa55-fake@db.internal:5432/app',
    secret: 'pa55-fake',
    expected: 'postgres://admin:[REDACTED:url-password]@db.internal:5432/app',
  },
  { name: 'mysql url', text: 'DATABASE_URL=mysql://root:r00tFAKE@localhost/db', secret: 'r00tFAKE' },
  {
    name: 'mongodb srv',
    text: '"mongodb+srv://app:M0ng0FAKE%21@cluster0.fake.mongodb.net/x"',
    secret: 'M0ng0FAKE',
  },
  { name: 'redis empty user', text: 'redis://:r3disFAKE@cache:6379/0', secret: 'r3disFAKE' },
  { name: 'amqp', text: 'amqp://guest:amqpFAKE99@rabbit/', secret: 'amqpFAKE99' },
  {
    name: 'https basic in url',
    text: 'https://user:tok3n-fake@git.example.com/repo.git',
    secret: 'tok3n-fake',
  },
  { name: 'ftp', text: 'ftp://bob:ftpFAKEpw@files.example.com/pub', secret: 'ftpFAKEpw' },
  {
    name: 'bearer header',
    text: 'Authorization: Bearer abcdefFAKE0123456789',
    secret: 'abcdefFAKE0123456789',
    expected: 'Authorization: Bearer [REDACTED:bearer]',
  },
  {
    name: 'bearer in curl',
    text: 'curl -H "authorization: bearer fakeTOKEN.value-123" https://api',
    secret: 'fakeTOKEN.value-123',
  },
  {
    name: 'basic header',
    text: 'Authorization: Basic ZmFrZTpGQUtFcGFzcw==',
    secret: 'ZmFrZTpGQUtFcGFzcw==',
    expected: 'Authorization: Basic [REDACTED:basic-auth]',
  },
  {
    name: 'github token header',
    text: '"Authorization": "token fakeFAKE1234567890"',
    secret: 'fakeFAKE1234567890',
  },
  {
    name: 'bearer without header',
    text: 'send Bearer Zm9vFAKEbarFAKE1234567890xyz',
    secret: 'Zm9vFAKEbarFAKE1234567890xyz',
  },
  { name: 'x-api-key header', text: 'curl -H "x-api-key: FAKEkey123456789"', secret: 'FAKEkey123456789' },
  {
    name: 'api-key header json',
    text: '{"headers":{"X-Api-Key":"FAKEheader-key-42"}}',
    secret: 'FAKEheader-key-42',
  },
  {
    name: 'dotenv password',
    text: 'DB_PASSWORD=hunter2-fake',
    secret: 'hunter2-fake',
    expected: 'DB_PASSWORD=[REDACTED:assignment]',
  },
  {
    name: 'dotenv export',
    text: 'export API_KEY=abc123fakefake',
    secret: 'abc123fakefake',
    expected: 'export API_KEY=[REDACTED:assignment]',
  },
  {
    name: 'dotenv quoted',
    text: 'SECRET_KEY="django-insecure-FAKE0fake"',
    secret: 'django-insecure-FAKE0fake',
    expected: 'SECRET_KEY="[REDACTED:assignment]"',
  },
  { name: 'dotenv single quoted', text: "STRIPE_KEY='stripeFAKE123'", secret: 'stripeFAKE123' },
  {
    name: 'json password',
    text: '"password": "Tr0ub4dor&3-fake"',
    secret: 'Tr0ub4dor&3-fake',
    expected: '"password": "[REDACTED:assignment]"',
  },
  { name: 'json escaped quote', text: '{"passwd":"ab\\"cdFAKE"}', secret: 'cdFAKE' },
  { name: 'yaml client secret', text: "client_secret: 'c1i3nt-s3cr3t-fake'", secret: 'c1i3nt-s3cr3t-fake' },
  { name: 'yaml unquoted', text: 'database:\n  password: yamlFAKEpw\n  user: app', secret: 'yamlFAKEpw' },
  { name: 'python assignment', text: 'SESSION_SECRET = "s3ss10n-fake-value"', secret: 's3ss10n-fake-value' },
  { name: 'python dict', text: "{'api_key': 'pyFAKEkey', 'n': 1}", secret: 'pyFAKEkey' },
  { name: 'aws secret ini', text: `aws_secret_access_key = ${AWS_SECRET}`, secret: AWS_SECRET },
  { name: 'aws secret yaml', text: `AWS_SECRET_ACCESS_KEY: "${AWS_SECRET}"`, secret: AWS_SECRET },
  { name: 'aws cli json', text: `{"SecretAccessKey": "${AWS_SECRET}"}`, secret: AWS_SECRET },
  {
    name: 'aws session token',
    text: 'AWS_SESSION_TOKEN=FwoGZXIvYXdzEFAKEfakeFAKE//////////',
    secret: 'FwoGZXIvYXdzEFAKEfakeFAKE',
  },
  {
    name: 'azure storage',
    text: 'DefaultEndpointsProtocol=https;AccountName=fake;AccountKey=FAKEfake0123456789FAKEfake==;EndpointSuffix=core.windows.net',
    secret: 'FAKEfake0123456789FAKEfake',
  },
  {
    name: 'azure service bus',
    text: 'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=sbFAKE0123+/=',
    secret: 'sbFAKE0123',
  },
  {
    name: 'sql server',
    text: 'Server=tcp:db;Database=app;User ID=sa;Password=Fak3P@ss!;Encrypt=true',
    secret: 'Fak3P@ss!',
  },
  { name: 'odbc pwd', text: 'Driver={x};Uid=me;Pwd=odbcFAKE1;', secret: 'odbcFAKE1' },
  {
    name: 'heroku uuid',
    text: 'HEROKU_API_KEY=01234567-89ab-cdef-0123-456789abcdef',
    secret: '01234567-89ab-cdef-0123-456789abcdef',
  },
  { name: 'camel api key', text: 'apiKey: "camelFAKE-0000"', secret: 'camelFAKE-0000' },
  { name: 'java properties', text: 'spring.datasource.password=springFAKE7', secret: 'springFAKE7' },
  { name: 'powershell env', text: '$env:GITHUB_TOKEN = "psFAKEtoken1"', secret: 'psFAKEtoken1' },
  { name: 'go short decl', text: 'token := "goFAKEtoken9"', secret: 'goFAKEtoken9' },
  { name: 'toml', text: 'auth_token = "tomlFAKE42"', secret: 'tomlFAKE42' },
  { name: 'credentials', text: 'credentials=credFAKE88', secret: 'credFAKE88' },
  { name: 'passphrase', text: 'passphrase: correct-horse-FAKE', secret: 'correct-horse-FAKE' },
  { name: 'pgpassword', text: 'PGPASSWORD=pgFAKE123 psql -h db', secret: 'pgFAKE123' },
  { name: 'cookie header', text: 'Cookie: sid=cookieFAKE123abc', secret: 'cookieFAKE123abc' },
  { name: 'signing key', text: 'JWT_SIGNING_KEY=signFAKE-000', secret: 'signFAKE-000' },
  { name: 'numeric password', text: 'password=86420975', secret: '86420975' },
  { name: 'xml password', text: '<server><password>xmlFAKEpw</password></server>', secret: 'xmlFAKEpw' },
  { name: 'query token', text: 'GET /reset?token=qFAKE-reset-99&lang=en', secret: 'qFAKE-reset-99' },
  {
    name: 'azure sas sig',
    text: 'https://acct.blob.core.windows.net/c?sv=2022&sig=sasFAKE%2Bsig%3D',
    secret: 'sasFAKE',
  },
  {
    name: 'docker auth',
    text: '{"auths":{"r":{"auth":"ZmFrZTpGQUtFZG9ja2Vy"}}}',
    secret: 'ZmFrZTpGQUtFZG9ja2Vy',
  },
  { name: 'cli password equals', text: 'mysql -u root --password=r00t-fake db', secret: 'r00t-fake' },
  {
    name: 'cli token space',
    text: 'psql --token f4k3-t0k3n-value',
    secret: 'f4k3-t0k3n-value',
    expected: 'psql --token [REDACTED:cli-flag]',
  },
  { name: 'cli api key quoted', text: 'tool --api-key "cliFAKEkey1" run', secret: 'cliFAKEkey1' },
  { name: 'mysql -p', text: 'mysql -u root -pMyFAKEpw1 app', secret: 'MyFAKEpw1' },
  { name: 'curl -u', text: 'curl -u admin:curlFAKEpw https://x', secret: 'curlFAKEpw' },
  {
    name: 'prose token',
    text: 'my token is 8f3Kq9ZmP2xL7vN4bR6tY1wE',
    secret: '8f3Kq9ZmP2xL7vN4bR6tY1wE',
    expected: 'my token is [REDACTED:high-entropy]',
  },
  {
    name: 'prose api key',
    text: 'here is the api key: Q2xq9ZFAKEp7Lm3Nv8Rt',
    secret: 'Q2xq9ZFAKEp7Lm3Nv8Rt',
  },
  {
    name: 'prose secret',
    text: 'the secret was `Zx81FAKEqwLmN0pQr5Tu` all along',
    secret: 'Zx81FAKEqwLmN0pQr5Tu',
  },
  { name: 'prose password', text: 'Password -> Kq8FAKEz2Wm4Nx7Pv1Ry', secret: 'Kq8FAKEz2Wm4Nx7Pv1Ry' },
  {
    name: 'private span',
    text: 'note <private>my home address is 1 Fake St</private> done',
    secret: 'my home address',
    expected: 'note [REDACTED:private] done',
  },
  {
    name: 'private spans upper',
    text: '<PRIVATE>first FAKEspan</PRIVATE> keep <Private>second FAKEspan</Private>',
    secret: 'FAKEspan',
    expected: '[REDACTED:private] keep [REDACTED:private]',
  },
  {
    name: 'private multiline',
    text: 'a\n<private>\nline one FAKE\nline two\n</private>\nb',
    secret: 'line one FAKE',
    expected: 'a\n[REDACTED:private]\nb',
  },
  {
    name: 'private unclosed',
    text: 'ok <private>to the end FAKE',
    secret: 'to the end FAKE',
    expected: 'ok [REDACTED:private]',
  },
  {
    name: 'private nested',
    text: '<private>a<private>b</private>leakFAKE</private>z',
    secret: 'leakFAKE',
    expected: '[REDACTED:private]z',
  },
];

/**
 * A password, secret or token-named key or environment variable: its value is a secret whatever it
 * looks like (words, "Secret" inside it, digits only). The first three are a red-team run's, which
 * reached a team server; the rest are where the same values turn up.
 */
const NAMED_VALUES: SecretCase[] = [
  {
    name: 'red team: password word value',
    text: 'password=SuperSecretPw123',
    secret: 'SuperSecretPw123',
    expected: 'password=[REDACTED:assignment]',
  },
  {
    name: 'red team: DB_PASSWORD word value',
    text: 'DB_PASSWORD=SuperSecretPw123 npm run migrate',
    secret: 'SuperSecretPw123',
    expected: 'DB_PASSWORD=[REDACTED:assignment] npm run migrate',
  },
  {
    name: 'red team: PGPASSWORD word value',
    text: 'PGPASSWORD=SuperSecretPw123 psql -h db.internal -U app',
    secret: 'SuperSecretPw123',
  },
  { name: 'exported env, no digits', text: 'export PGPASSWORD=MySecretValue', secret: 'MySecretValue' },
  { name: 'env secret key word', text: 'SECRET_KEY=MySecret', secret: 'MySecret' },
  { name: 'env password digits only', text: 'PGPASSWORD=97531864 pg_dump app', secret: '97531864' },
  { name: 'env quoted digits', text: 'DB_PASSWORD="2468"', secret: '2468' },
  {
    name: 'env token camel value',
    text: 'export API_TOKEN=MySecretTokenValue',
    secret: 'MySecretTokenValue',
  },
  {
    name: 'docker run -e',
    text: 'docker run -e POSTGRES_PASSWORD=SuperSecretPw123 -d postgres:16',
    secret: 'SuperSecretPw123',
  },
  {
    name: 'compose environment yaml',
    text: 'environment:\n  POSTGRES_PASSWORD: MySecretValue\n  POSTGRES_USER: app',
    secret: 'MySecretValue',
  },
  { name: 'yaml password with digits', text: '  password: SuperSecretPw123', secret: 'SuperSecretPw123' },
  { name: 'flag equals word', text: 'mysql --password=SuperSecretPw --host db', secret: 'SuperSecretPw' },
  {
    name: 'flag space word',
    text: 'redis-cli --pass SuperSecretPw123 ping',
    secret: 'SuperSecretPw123',
  },
  { name: 'mysql -p word', text: 'mysql -uroot -pSuperSecret app', secret: 'SuperSecret' },
  {
    name: 'connection string word',
    text: 'Server=db;Database=app;User Id=sa;Password=SuperSecret;',
    secret: 'SuperSecret',
  },
  {
    name: 'query access token word',
    text: 'GET /api/me?access_token=SecretAccessToken&fields=id',
    secret: 'SecretAccessToken',
  },
  {
    name: 'npmrc auth token',
    text: '//registry.npmjs.org/:_authToken=MySecretNpmToken',
    secret: 'MySecretNpmToken',
  },
  {
    name: 'heroku config set',
    text: 'heroku config:set SECRET_KEY_BASE=MySecretKeyBase',
    secret: 'MySecretKeyBase',
  },
  { name: 'dockerfile env', text: 'ENV DB_PASSWORD SuperSecretPw123', secret: 'SuperSecretPw123' },
  { name: 'dockerfile arg', text: 'ARG NPM_TOKEN MyNpmTokenValue', secret: 'MyNpmTokenValue' },
  { name: 'fish set -gx', text: 'set -gx PGPASSWORD MySecretValue', secret: 'MySecretValue' },
  {
    name: 'powershell env word',
    text: '$env:PGPASSWORD = "SuperSecretPw"',
    secret: 'SuperSecretPw',
  },
  { name: 'windows set', text: 'set DB_PASSWORD=SuperSecret123', secret: 'SuperSecret123' },
  { name: 'env json digits', text: '{"PGPASSWORD": "13572468"}', secret: '13572468' },
  // Secret-named keys in any case (issue 17: `DB_PASSWORd=…` was left whole, whatever its value).
  {
    name: 'mixed case env name, short word',
    text: 'DB_PASSWORd=osprey npm run migrate',
    secret: 'osprey',
    expected: 'DB_PASSWORd=[REDACTED:assignment] npm run migrate',
  },
  { name: 'mixed case env name, spaced', text: 'DB_PASSWORd = MySecretValue', secret: 'MySecretValue' },
  { name: 'title case snake key, yaml', text: 'Api_Key: MySecretValue', secret: 'MySecretValue' },
  { name: 'title case snake key, digits', text: 'Api_Key: 75319', secret: '75319' },
  { name: 'snake key, spaced word', text: 'db_password = Kumquat', secret: 'Kumquat' },
  { name: 'lower case env name, word', text: 'pgpassword=walrus psql -h db', secret: 'walrus' },
  { name: 'snake token key, ini', text: 'Github_Token = zqv', secret: 'zqv' },
  // A plain word after a spaced `=` in a config, shell or log line (issue 17: `password = hunter`).
  { name: 'plain key, spaced lower-case word', text: 'password = hunter', secret: 'hunter' },
  { name: 'ini section, spaced word', text: '[client]\nuser = app\npassword = walrus\n', secret: 'walrus' },
  { name: 'spaced word before a comment', text: 'token = zebra  # the staging one', secret: 'zebra' },
  { name: 'git config, tab indent', text: '[sendemail]\n\tsmtpPass = osprey', secret: 'osprey' },
  {
    name: 'spaced word in a log line',
    text: 'loaded config: secret = mango from /etc/app.cfg',
    secret: 'mango',
  },
  // Issue 17, the last audit: dotted keys, indented config, mixed case, `&` inside a value.
  { name: 'dotted key, spaced value', text: 'db.password = s3cretvalue', secret: 's3cretvalue' },
  {
    name: 'spring properties, spaced word',
    text: 'spring.datasource.password = walrus',
    secret: 'walrus',
    expected: 'spring.datasource.password = [REDACTED:assignment]',
  },
  { name: 'spring properties, no spaces', text: 'spring.datasource.password=FakeValue', secret: 'FakeValue' },
  { name: 'dotted yaml key, word', text: 'auth.token: osprey', secret: 'osprey' },
  { name: 'dotted yaml key, digits', text: 'auth.token: s3cr3tfake', secret: 's3cr3tfake' },
  {
    name: 'yaml block, ampersand in value',
    text: 'db:\n  password: Tr0ub4dor&3',
    secret: 'Tr0ub4dor&3',
    expected: 'db:\n  password: [REDACTED:assignment]',
  },
  {
    name: 'env value with ampersand',
    text: 'DB_PASSWORD=Fake&Pass9 npm start',
    secret: 'Fake&Pass9',
    expected: 'DB_PASSWORD=[REDACTED:assignment] npm start',
  },
  {
    name: 'toml section, indented quoted key',
    text: '[server]\n    api_key = "fake-key-value"',
    secret: 'fake-key-value',
  },
  { name: 'json password, spaced', text: '{"password": "fake-pw-value"}', secret: 'fake-pw-value' },
  { name: 'upper-case env, mixed-case value', text: 'PASSWORD=Hunter2x', secret: 'Hunter2x' },
  { name: 'capitalised key, value with digits', text: 'Password: Winter2024', secret: 'Winter2024' },
];

/**
 * A secret-named key and a single word on a config entry's own line (YAML, TOML, INI, properties, a
 * header): the word is the value, whatever its case, where the key's shape or the `:` says it is no
 * code. Only on a line of their own (between other words, `Password: Enter your password` is prose),
 * so they are not in `SECRETS`, whose cases are found anywhere.
 */
export const ENTRY_VALUES: readonly SecretCase[] = [
  { name: 'spaced colon', text: 'password : hunter', secret: 'hunter' },
  { name: 'yaml, capitalised word', text: 'password: Fakepass', secret: 'Fakepass' },
  {
    name: 'yaml block, capitalised word',
    text: 'db:\n  password: Fakepass\n  user: app',
    secret: 'Fakepass',
  },
  {
    name: 'nested yaml, dotted path of sections',
    text: 'spring:\n  datasource:\n    password: Walrus',
    secret: 'Walrus',
  },
  { name: 'yaml list item', text: '- password: Kumquat', secret: 'Kumquat' },
  { name: 'capitalised key and word, ini', text: 'Password = Hunter', secret: 'Hunter' },
  { name: 'capitalised key, yaml word', text: 'Password: Winter', secret: 'Winter' },
  { name: 'dotted key, capitalised word', text: 'spring.datasource.password: Walrus', secret: 'Walrus' },
  { name: 'dotted key, spaced colon', text: 'auth.token : zebra', secret: 'zebra' },
  { name: 'hyphenated header key', text: 'X-Api-Key: Osprey', secret: 'Osprey' },
  {
    name: 'indented ini, camel-case word, comment',
    text: '[mysql]\n  Password = CorrectHorse  # staging',
    secret: 'CorrectHorse',
  },
];

/**
 * Secrets a line alone does not show (`    password = hunter`, `password: CorrectHorse`, `password:hunter`
 * are code as often as config), in texts that are config files by their own lines: each secret, once,
 * replaced by `[REDACTED:assignment]` is the text's whole scrubbed output.
 */
export const CONFIG_FILES: readonly SecretCase[] = [
  {
    name: 'ini, indented entry with a plain key and word',
    text: '[database]\nhost = db.internal\nuser = app\n    password = hunter\n',
    secret: 'hunter',
  },
  {
    name: 'yaml, a word shaped like a type after a plain key',
    text: 'database:\n  host: db.internal\n  password: CorrectHorse\n  pool: 5\n',
    secret: 'CorrectHorse',
  },
  {
    name: 'properties, no space after the colon',
    text: '# app\ndb.url=jdbc:postgresql://db.internal/app\ndb.user=app\npassword:hunter\n',
    secret: 'hunter',
  },
  {
    name: 'toml, indented entry in a table',
    text: '[server]\nport = 8080\n\n[auth]\n  token = walrus\n',
    secret: 'walrus',
  },
  {
    name: 'docker-compose with a list and a block scalar',
    text: [
      'services:',
      '  db:',
      '    image: postgres:16',
      '    environment:',
      '      - POSTGRES_DB=app',
      '    command: |',
      '      postgres -c log_statement=all',
      '    secret: CorrectHorse',
      '',
    ].join('\n'),
    secret: 'CorrectHorse',
  },
  {
    name: 'a file read with its line numbers',
    text: '     1→[db]\n     2→user = app\n     3→    password = hunter\n',
    secret: 'hunter',
  },
  {
    name: 'cat -n of an ini file, CRLF line ends',
    text: '     1\t[db]\r\n     2\tuser = app\r\n     3\tpassword:hunter\r\n',
    secret: 'hunter',
  },
];

/**
 * Code holding the same shapes (TypeScript annotations, destructuring, Python assignments from calls or
 * variables): unchanged, whole or cut into a snippet.
 */
export const CODE_TEXTS: readonly string[] = [
  'interface Login {\n  user: string;\n  password: Password;\n}\n',
  'type Creds = {\n  user: string;\n  password: CorrectHorse;\n};\n',
  'function login({ password: pw }: Creds) {\n  return check(pw);\n}\n',
  'const { user, password: pw } = form;\nawait login(user, pw);\n',
  'user = input("user: ")\npassword = hunter_input()\n',
  'import getpass\nuser = os.getlogin()\npassword = getpass()\n',
  'def connect(hunter):\n    user = admin\n    password = hunter\n    return db.connect(user, password)\n',
  'class Settings:\n    user = admin\n    password = hunter\n',
  '        user = admin\n        password = hunter\n',
  '    if kind == 1:\n        token = Error\n    else:\n        token = Name\n',
  'else:\n    token = Name\n',
  'self.user = admin\nself.password = hunter\n',
  '    token = element\n    kind = token[0]\n',
  'routes:\n  - auth:login\n  - password:reset\n',
];

/** A file's text as a capture payload gives it with the file's path (a Write, an Edit, a Read's result). */
export interface FileCase {
  readonly path: string;
  readonly text: string;
}

/**
 * Config files by their path, each of one entry whose line alone does not show a secret (or does: the
 * `.env` forms): the path makes the text config, so its value is scrubbed whatever it looks like.
 */
export const CONFIG_FILES_BY_PATH: readonly (FileCase & { readonly secret: string })[] = [
  { path: 'config/database.ini', text: '    password = hunter', secret: 'hunter' },
  { path: 'settings.yaml', text: 'password: CorrectHorse', secret: 'CorrectHorse' },
  { path: '/srv/app/docker-compose.yml', text: '      secret: CorrectHorse\n', secret: 'CorrectHorse' },
  { path: 'src/main/resources/application.properties', text: 'db.password:hunter', secret: 'hunter' },
  { path: 'Cargo.toml', text: '  token = walrus', secret: 'walrus' },
  { path: '/home/u/.aws/credentials', text: 'aws_secret_access_key = CorrectHorse', secret: 'CorrectHorse' },
  { path: 'C:\\app\\conf\\my.cnf', text: '  password = Walrus', secret: 'Walrus' },
  { path: '.npmrc', text: 'password = Walrus', secret: 'Walrus' },
  { path: '.env', text: 'export SECRET_TOKEN=word', secret: 'word' },
  { path: '.env.production.local', text: 'SECRET_TOKEN="value with spaces"', secret: 'value with spaces' },
  { path: 'deploy/prod.env', text: 'API_KEY=CorrectHorse', secret: 'CorrectHorse' },
  { path: 'settings.yml', text: '     1\tpassword: CorrectHorse\n', secret: 'CorrectHorse' },
];

/**
 * The same shapes in code files (and files whose names only mention config): a line alone does not
 * show them to be values, and the path says code, so they are kept as without a path.
 */
export const CODE_FILES_BY_PATH: readonly FileCase[] = [
  { path: 'src/db.py', text: '    password = hunter' },
  { path: 'src/types.ts', text: 'password: CorrectHorse' },
  { path: 'app/config.py', text: '    token = walrus' },
  { path: 'src/settings.yaml.ts', text: 'password: CorrectHorse' },
  { path: 'lib/env.rb', text: '  secret = CorrectHorse' },
  { path: 'docs/.env.example.md', text: '    password = hunter' },
  { path: 'src/db.py', text: 'self.password = hunter\n' },
  { path: 'src/Login.java', text: '     1\tpassword: CorrectHorse\n' },
];

/** Every secret in the corpus. */
export const SECRETS: readonly SecretCase[] = [...TOKENS, ...PEMS, ...IN_CONTEXT, ...NAMED_VALUES];

/** Look-alikes that must come through unchanged. */
export const LOOKALIKES: readonly string[] = [
  'commit 4e1f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f fixed it',
  'git checkout 4e1f2a9',
  'cherry-picked 9fceb02d0ae5 onto main',
  'id 123e4567-e89b-12d3-a456-426614174000',
  'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'see src/auth/token-refresh.ts line 40',
  '/home/user/.config/secrets/README.md',
  'https://example.com/docs/api?page=2&sort=asc',
  'https://github.com/org/repo/blob/main/src/auth.ts#L10',
  'password_reset_url: true',
  '"Unexpected_token_1012": "Unexpected token, expected a name."',
  'api_key = os.environ["API_KEY"]',
  'const hashed_password = hashPassword(input);',
  'password_reset_url = 3',
  'token_count = 1234',
  'max_tokens: 4096',
  '"max_tokens": 8192, "temperature": 0.2',
  'aGVsbG8gd29ybGQ=',
  'the lockfile lists integrity sha512-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH== for it',
  'version 1.2.3-beta.4',
  '2026-11-22T18:00:00Z',
  'color: #ff8800;',
  'background: #FFF',
  'useAuthenticationTokenRefreshHandler()',
  'the token expired, so I refreshed it',
  'the password field is required',
  'Keep the secret sauce recipe',
  'export PATH=/usr/bin:$PATH',
  'function getToken(): string {',
  'const token = await getToken();',
  'const secret = process.env.SECRET;',
  'const apiKey = process.env.API_KEY!;',
  'token = os.environ["TOKEN"]',
  'password: string;',
  'password?: string | null;',
  'auth: { user: "x", pass: process.env.PASS }',
  'if (!token) return; const auth = req.headers.authorization;',
  'API_KEY=${API_KEY}',
  'GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}',
  'TOKEN=$(gh auth token)',
  'password: <your-password>',
  'token: null',
  'SECRET=""',
  'password: ********',
  'api_key: xxxxxxxx',
  'fetch(url, { credentials: "include" })',
  'token_type: bearer',
  'npm install jsonwebtoken',
  'keyboard: layout',
  'Basic auth is disabled',
  'Author: Jane Doe <jane@example.com>',
  'authorization header missing',
  'const { password } = body; user.password = hashedPassword;',
  'Authorization: Bearer ${TOKEN}',
  'Authorization: Bearer <token>',
  'docker login --password-stdin',
  'gh auth login --with-token < token.txt',
  '"private": true',
  'secrets: inherit',
  'password_min_length: 12',
  'key: value',
  'tokens: 1200',
  'monkey=banana',
  'for (const [key, value] of entries) {}',
  'SELECT * FROM users WHERE token_id = 42',
  'TOKEN_TTL=3600',
  'AUTH_MODE=oauth',
  'a DSN like postgres://localhost:5432/app has no password',
  'ssh git@github.com:org/repo.git',
  '[REDACTED:assignment] and DB_PASSWORD=[REDACTED:assignment]',
  // Shapes met in real code and docs.
  '// First pass: process all schemas',
  'getFirstToken: SourceCode.UnaryNodeCursorWithSkipOptions;',
  'const firstToken = node && sourceCode.getFirstToken(node);',
  'token = comment;',
  'tokenValue: token.value,',
  'privateKey: T2;',
  "const log = debug('auth:login');",
  '- Release GPG key: 0123456789ABCDEF0123456789ABCDEF01234567',
  '- _passContext_: pass validation context to custom keyword functions',
  'src/auth.ts: changed validateToken',
  'function createSecretKey(key: NodeJS.ArrayBufferView): KeyObject;',
  'Returns headers including "set-cookie: a"',
  'const { data: session } = await supabase.auth.getSession();',
  'password = getpass.getpass()',
  'PASSWORD_FILE=/run/secrets/db_password',
  'ERROR: invalid password: must be at least 8 characters',
  'password: !vault |',
  'Bearer tokens are described in RFC 6750',
  "password = input('Password: ')",
  'passwordless login via magic link',
  '"cookie-parser": "^1.4.6",',
  '"Unexpected_token_1012": "Unexpected token, expected a name.",',
  '"token_msg": "意外的标记。"',
  // Names of secrets whose values are references, masks, flags or code, not secrets.
  'psycopg2.connect(host=host, password=password)',
  'conn = connect(user=user, password=db_password)',
  'const TOKEN = token;',
  'DB_PASSWORD=$DB_PASSWORD',
  'PGPASSWORD=${PGPASSWORD:-} psql',
  'export GITHUB_TOKEN=$(gh auth token)',
  'AUTH_TOKEN_TTL=3600',
  'DB_PASSWORD_FILE=/run/secrets/db',
  'password=********',
  'mysql --password=<password>',
  'NPM_TOKEN=${{ secrets.NPM_TOKEN }}',
  'token=undefined',
  'TOKEN = None',
  'ENV NODE_ENV production',
  'ARG NPM_TOKEN',
  'ENV PGPASSWORD_FILE /run/secrets/pg',
  'set the token in your shell',
  'SECRET_KEY=%SECRET_KEY%',
  'PASSWORD=process.env.PASSWORD',
  'curl --oauth2-bearer $TOKEN https://x',
  // `name = word` in code: the word is a variable, and the line says so.
  'password = user_input',
  'password = getpass()',
  'password = os.environ["DB_PASSWORD"]',
  'password = None',
  'self.password = password',
  'password = pw',
  'password = passwd or ask()',
  '    token = element',
  'username, password = split',
  'let password = entered',
  '$password = entered;',
  '@password = entered',
  'password = value if value else default',
  'const Credentials = class {',
  'token = Error',
  'password = secret',
  'f(password = entered)',
  'token = tok',
  // Issue 17: config-shaped lines whose value is a type, a reference, a sentence or code.
  'password = getenv("X")',
  'password: ${{ secrets.X }}',
  'token: ${TOKEN}',
  'spring.datasource.password=${DB_PASSWORD}',
  'password_hash: abc',
  'password_hash = hash(pw)',
  'the password is stored hashed',
  '  password: SecretStr',
  '  token: Token',
  '  secret: Secret',
  '  password: Optional[str]',
  '  password: string',
  'password: String',
  'password : str',
  '  credentials: GoogleCredentials',
  '  auth: Authenticator',
  'Password: The password for the admin user.',
  'Password: Enter your password',
  'Password: Required',
  'Token: A token used to sign requests',
  'user.password = entered',
  'config.password = entered',
  'self.password = entered',
  'password := entered',
  '    password = entered',
  // Issue 17: alone, a line does not show config, and these are code as often.
  'password: Password',
  '{ password: pw }',
  'password = prompt_input()',
  'password = getpass()',
  '    password = getpass()',
];
