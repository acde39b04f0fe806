import { describe, expect, it } from 'vitest';
import { shellReads } from './shell-reads.ts';

const ROOT = '/home/dev/shop';

describe('what a shell line looked at', () => {
  it('names the project files a command printed, as the Read tool would', () => {
    expect(shellReads('cat package.json', ROOT).files).toEqual(['package.json']);
    expect(shellReads("sed -n '1,40p' src/cart.ts && head -n 20 README.md", ROOT).files).toEqual([
      'src/cart.ts',
      'README.md',
    ]);
    expect(shellReads('tail -50 /home/dev/shop/logs/dev.log | grep -i error', ROOT).files).toEqual([
      'logs/dev.log',
    ]);
    // Relative to where the agent's shell was.
    expect(shellReads('cat index.ts', ROOT, '/home/dev/shop/packages/api').files).toEqual([
      'packages/api/index.ts',
    ]);
  });

  it('leaves out what is not a project file: another folder, a scratch place, a glob, a write', () => {
    expect(
      shellReads('cat /etc/hosts ../other/notes.md /tmp/out.txt src/*.ts ~/.bashrc', ROOT).files,
    ).toEqual([]);
    expect(shellReads("cat > src/new.ts <<'EOF'\nexport const x = 1;\nEOF", ROOT).files).toEqual([]);
    expect(shellReads("sed -i 's/a/b/' src/cart.ts", ROOT).files).toEqual([]);
  });

  it('names what a command searched for and where, as the Grep tool would', () => {
    expect(shellReads('grep -rn "createSession" app/routes', ROOT).searches).toEqual([
      'grep createSession in app/routes',
    ]);
    expect(shellReads("rg -g '*.ts' -e TODO src", ROOT).searches).toEqual(['rg TODO in src']);
    expect(shellReads('git grep -n requireUser', ROOT).searches).toEqual(['grep requireUser']);
    expect(shellReads('npm test', ROOT)).toEqual({ files: [], searches: [] });
    // Filtering what a command printed searches nothing of the project.
    expect(shellReads('npm test 2>&1 | grep -i fail', ROOT).searches).toEqual([]);
    // Listing files searches for nothing.
    expect(shellReads('rg --files src', ROOT).searches).toEqual([]);
  });
});
