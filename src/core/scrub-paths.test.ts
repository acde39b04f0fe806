import { describe, expect, it } from 'vitest';
import { isConfigFile } from './config-text.ts';
import { CODE_FILES_BY_PATH, CONFIG_FILES_BY_PATH } from './scrub-corpus.test-data.ts';
import { scrubbingTogether, scrubTextWithCount } from './scrub.ts';

const REDACTED = '[REDACTED:assignment]';

describe('a config file known by its path', () => {
  it('tells config files from code by extension and well-known names', () => {
    const config = [
      '.env',
      '/p/.env.local',
      'web/.env.production.local',
      'deploy/prod.env',
      'config/database.ini',
      'setup.cfg',
      '/etc/nginx/nginx.conf',
      'my.cnf',
      'application.properties',
      'pyproject.toml',
      'settings.yaml',
      'docker-compose.yml',
      'compose.YML',
      'appsettings.json',
      'terraform.tfvars',
      '/home/u/.npmrc',
      '.pypirc',
      '.gitconfig',
      '/home/u/.aws/credentials',
      '.envrc',
      '/p/api/.envrc',
      'web.config',
      'src/Api/App.config',
      'NuGet.Config',
      'C:\\app\\conf\\app.ini',
    ];
    const code = [
      'src/db.py',
      'src/env.ts',
      '.env.ts',
      'docs/.env.example.md',
      'app/config.py',
      'src/settings.yaml.ts',
      'config/index.js',
      'lib/credentials.rb',
      'Dockerfile',
      'README.md',
      'src/.envrc.sh',
      'webpack.config.js',
      'src/app.config.ts',
      '',
    ];
    expect(config.filter((p) => !isConfigFile(p))).toEqual([]);
    expect(code.filter((p) => isConfigFile(p))).toEqual([]);
  });

  it(`removes the secret of all ${CONFIG_FILES_BY_PATH.length} one-entry config files, keeping the key`, () => {
    for (const c of CONFIG_FILES_BY_PATH) {
      expect(isConfigFile(c.path), c.path).toBe(true);
      expect(scrubTextWithCount(c.text, true), `${c.path}: ${c.text}`).toEqual({
        text: c.text.replace(c.secret, REDACTED),
        redactions: 1,
      });
    }
  });

  it('needs the path for the entries a line alone does not show', () => {
    const needPath = CONFIG_FILES_BY_PATH.filter((c) => scrubTextWithCount(c.text).redactions === 0);
    expect(needPath.map((c) => c.path)).toEqual([
      'config/database.ini',
      'settings.yaml',
      '/srv/app/docker-compose.yml',
      'src/main/resources/application.properties',
      'Cargo.toml',
      'C:\\app\\conf\\my.cnf',
      '.npmrc',
      'settings.yml',
    ]);
  });

  it(`keeps all ${CODE_FILES_BY_PATH.length} near misses in code files exactly as without a path`, () => {
    for (const c of CODE_FILES_BY_PATH) {
      expect(isConfigFile(c.path), c.path).toBe(false);
      expect(scrubTextWithCount(c.text, isConfigFile(c.path)), `${c.path}: ${c.text}`).toEqual({
        text: c.text,
        redactions: 0,
      });
    }
  });

  it('scrubs a line a config file and code share as each needs, in one scope, in either order', () => {
    const line = '    password = hunter';
    const configFirst = scrubbingTogether(() => [
      scrubTextWithCount(line, true).text,
      scrubTextWithCount(line).text,
      scrubTextWithCount(`x\n${line}`, true).text,
      scrubTextWithCount(`x\n${line}`).text,
    ]);
    const codeFirst = scrubbingTogether(() => [
      scrubTextWithCount(line).text,
      scrubTextWithCount(line, true).text,
      scrubTextWithCount(`x\n${line}`).text,
      scrubTextWithCount(`x\n${line}`, true).text,
    ]);
    const redacted = `    password = ${REDACTED}`;
    expect(configFirst).toEqual([redacted, line, `x\n${redacted}`, `x\n${line}`]);
    expect(codeFirst).toEqual([line, redacted, `x\n${line}`, `x\n${redacted}`]);
  });

  it('remembers a whole text scrubbed as a config file apart from the same text without a path', () => {
    const text = `# ${'settings of the staging database, '.repeat(8)}\n    password = hunter\n`; // remembered whole
    const redacted = text.replace('hunter', REDACTED);
    const together = scrubbingTogether(() =>
      [true, false, true, false, undefined, true].map((config) => scrubTextWithCount(text, config)),
    );
    expect(together.map((r) => r.text)).toEqual([redacted, text, redacted, text, text, redacted]);
    expect(together.map((r) => r.redactions)).toEqual([1, 0, 1, 0, 0, 1]);
  });
});
