import { describe, expect, it } from 'vitest';
import { looksRandom, scrubText, scrubTextWithCount, scrubValue } from './scrub.ts';

// Obviously fake secrets, built by concatenation so no scanner takes this file for a leak.
const j = (...parts: string[]) => parts.join('');
const FAKE_CORE: [string, string][] = [
  ['aws access key', j('AKIA', 'FAKEFAKEFAKE1234')],
  ['aws session key', j('ASIA', 'ZZZZFAKE00001111')],
  ['gcp api key', j('AIza', 'SyFAKE-fake_FAKEfakeFAKEfake0123456')],
  ['github pat', j('ghp_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234')],
  ['github oauth', j('gho_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake5678')],
  ['github fine-grained', j('github_pat_', '11FAKEFAKE0_fakefakefakefakeFAKEFAKEfake')],
  ['gitlab', j('glpat-', 'FAKEfakeFAKEfake1234')],
  ['slack bot', j('xoxb-', '123456789012-FAKEfakeFAKE')],
  ['slack webhook', j('https://hooks.slack.com/services/', 'T000FAKE/B000FAKE/XXXXfakeXXXXfake')],
  ['stripe live', j('sk_live_', 'FAKEfakeFAKEfake12345678')],
  ['stripe restricted', j('rk_test_', 'FAKEfakeFAKEfake12345678')],
  ['openai', j('sk-', 'FAKEfakeFAKEfakeFAKEfake1234')],
  ['openai project', j('sk-proj-', 'FAKE_fake-FAKEfakeFAKEfake1234')],
  ['anthropic', j('sk-ant-', 'api03-FAKEfakeFAKEfake-FAKEfake')],
  ['npm', j('npm_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake1234')],
  ['pypi', j('pypi-', 'AgEIcHlwaS5vcmcFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKE')],
  ['sendgrid', j('SG.', 'FAKEfakeFAKEfake1234', '.', 'FAKEfakeFAKEfake5678')],
  ['hugging face', j('hf_', 'FAKEfakeFAKEfakeFAKEfakeFAKEfake12')],
  ['google oauth', j('ya29.', 'FAKEfakeFAKEfakeFAKEfake')],
  ['shopify', j('shpat_', 'abcdef0123456789abcdef0123456789')],
  ['digitalocean', j('dop_v1_', 'abcdef0123456789'.repeat(4))],
  ['doppler', j('dp.st.', 'dev.FAKEfakeFAKEfakeFAKE')],
  ['twilio', j('SK', '0123456789abcdef0123456789abcdef')],
  ['jwt', j('eyJhbGciOiJIUzI1NiJ9', '.', 'eyJzdWIiOiJmYWtlIn0', '.', 'ZmFrZS1zaWduYXR1cmU')],
];

/** Secrets whose shape depends on context: [text, the secret part that must vanish]. */
const IN_CONTEXT: [string, string][] = [
  ['DB_PASSWORD=hunter2-fake', 'hunter2-fake'],
  ['export API_KEY=abc123fakefake', 'abc123fakefake'],
  ['"password": "Tr0ub4dor&3-fake"', 'Tr0ub4dor&3-fake'],
  ["client_secret: 'c1i3nt-s3cr3t-fake'", 'c1i3nt-s3cr3t-fake'],
  ['SESSION_SECRET = "s3ss10n-fake-value"', 's3ss10n-fake-value'],
  [
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEFAKEKEY',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYFAKEFAKEKEY',
  ],
  ['postgres://admin:pa55-fake@db.internal:5432/app', 'pa55-fake'],
  ['https://user:tok3n-fake@git.example.com/repo.git', 'tok3n-fake'],
  ['Authorization: Bearer abcdefFAKE0123456789', 'abcdefFAKE0123456789'],
  ['curl -H "x-api-key: FAKEkey123456789"', 'FAKEkey123456789'],
  ['mysql -u root --password=r00t-fake db', 'r00t-fake'],
  ['psql --token f4k3-t0k3n-value', 'f4k3-t0k3n-value'],
  ['AccountName=x;AccountKey=FAKEfake0123456789FAKEfake==;', 'FAKEfake0123456789FAKEfake=='],
  ['Server=x;Password=P4ss-fake;Database=y', 'P4ss-fake'],
  ['my token is 8f3Kq9ZmP2xL7vN4bR6tY1wE', '8f3Kq9ZmP2xL7vN4bR6tY1wE'],
  [
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEFAKEFAKEkeymaterial\n-----END RSA PRIVATE KEY-----',
    'MIIEFAKEFAKEkeymaterial',
  ],
  [
    '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaFAKE\\n-----END OPENSSH PRIVATE KEY-----',
    'b3BlbnNzaFAKE',
  ],
  ['-----BEGIN PRIVATE KEY-----\nunterminated FAKE key material', 'unterminated FAKE key material'],
  ['note <private>my home address is 1 Fake St</private> done', 'my home address is 1 Fake St'],
  ['<PRIVATE>a</PRIVATE> and <private>second fake secret', 'second fake secret'],
];

/** Look-alikes that must come through unchanged. */
const KEEP = [
  'commit 4e1f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f fixed it',
  'git checkout 4e1f2a9',
  'id 123e4567-e89b-12d3-a456-426614174000',
  'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'see src/auth/token-refresh.ts line 40',
  'https://example.com/docs/api?page=2',
  'password_reset_url: true',
  'token_count = 1234',
  'max_tokens: 4096',
  'version 1.2.3-beta.4',
  '2026-11-22T18:00:00Z',
  'color: #ff8800;',
  'useAuthenticationTokenRefreshHandler()',
  'the token expired, so I refreshed it',
  'export PATH=/usr/bin:$PATH',
  'function getToken(): string {',
  'const token = await getToken();',
  'password: string;',
  'const secret = process.env.SECRET;',
  'auth: { user: "x", pass: process.env.PASS }',
  'if (!token) return; const auth = req.headers.authorization;',
  'API_KEY=${API_KEY}',
  'password: <your-password>',
  'token: null',
  'SECRET=""',
  'the password field is required',
  'npm install jsonwebtoken',
  'keyboard: layout',
  'Basic auth is disabled',
  'secret sauce recipe',
];

describe('scrubText', () => {
  it('removes every distinctive token shape, anywhere in the text', () => {
    let caught = 0;
    for (const [name, secret] of FAKE_CORE) {
      for (const text of [
        secret,
        `key=${secret}`,
        `before ${secret} after`,
        `"${secret}"`,
        `\n${secret}\n`,
      ]) {
        const out = scrubText(text);
        expect(out, `${name} in ${JSON.stringify(text)}`).not.toContain(secret);
        expect(out).toContain('[REDACTED:');
        caught++;
      }
    }
    expect(caught).toBe(FAKE_CORE.length * 5);
  });

  it('removes secrets that are secrets by their context, keeping the names', () => {
    for (const [text, secret] of IN_CONTEXT) {
      const out = scrubText(text);
      expect(out, JSON.stringify(text)).not.toContain(secret);
    }
    expect(scrubText('DB_PASSWORD=hunter2-fake')).toBe('DB_PASSWORD=[REDACTED:assignment]');
    expect(scrubText('postgres://admin:pa55-fake@db:5432/app')).toBe(
      'postgres://admin:[REDACTED:url-password]@db:5432/app',
    );
    expect(scrubText('note <private>x y z</private> done')).toBe('note [REDACTED:private] done');
  });

  it('keeps look-alikes unchanged', () => {
    const changed = KEEP.filter((text) => scrubText(text) !== text);
    expect(changed).toEqual([]);
  });

  it('reports recall and false positives over the whole corpus', () => {
    const secrets = [
      ...FAKE_CORE.flatMap(([, secret]) =>
        [secret, `key=${secret}`, `before ${secret} after`, `"${secret}"`, `\n${secret}\n`].map(
          (t) => [t, secret] as const,
        ),
      ),
      ...IN_CONTEXT,
    ];
    const caught = secrets.filter(([text, secret]) => !scrubText(text).includes(secret)).length;
    const falsePositives = KEEP.filter((text) => scrubText(text) !== text).length;
    process.stdout.write(
      `scrubber corpus: recall ${caught}/${secrets.length}, false positives ${falsePositives}/${KEEP.length}\n`,
    );
    expect(secrets.length).toBeGreaterThanOrEqual(100);
    expect(caught).toBe(secrets.length);
    expect(falsePositives).toBe(0);
  });

  it('counts redactions, is idempotent and linear on hostile input', () => {
    const text = `a ${FAKE_CORE[0]?.[1]} b DB_PASSWORD=x1y2z3fake`;
    expect(scrubTextWithCount(text).redactions).toBe(2);
    const once = scrubText(text);
    expect(scrubText(once)).toBe(once);
    for (const hostile of [
      'a='.repeat(2_500_000),
      '-----BEGIN PRIVATE KEY-----'.repeat(100_000),
      'password: '.repeat(500_000),
      '<private>'.repeat(300_000),
      'A'.repeat(5_000_000),
    ]) {
      const started = Date.now();
      scrubText(hostile);
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });
});

describe('scrubValue', () => {
  it('scrubs every string at any depth without mutating the input', () => {
    const secret = FAKE_CORE[3]?.[1] as string;
    const input = { a: [{ b: `x ${secret}` }, 3, null, true], c: { d: 'plain' } };
    const copy = structuredClone(input);
    const out = scrubValue(input);
    expect(input).toEqual(copy);
    expect(JSON.stringify(out)).not.toContain(secret);
    expect(out.c.d).toBe('plain');
    expect(out.a[1]).toBe(3);
  });
});

describe('looksRandom', () => {
  it('tells random keys from words and hex digests', () => {
    expect(looksRandom('8f3Kq9ZmP2xL7vN4bR6tY1wE')).toBe(true);
    expect(looksRandom('abcdefabcdefabcdefabcdef0123')).toBe(false);
    expect(looksRandom('thisisjustalongenglishword')).toBe(false);
  });
});
