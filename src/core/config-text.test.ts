import { describe, expect, it } from 'vitest';
import { isConfigText } from './config-text.ts';

describe('isConfigText', () => {
  it('takes config files by their own lines, as read or printed with cat -n', () => {
    for (const text of [
      '[database]\nhost = db.internal\n; staging\n    password = hunter\n',
      'database:\n  host: db.internal\n  password: CorrectHorse\n',
      '# app\ndb.url=jdbc:postgresql://db/app\npassword:hunter\n',
      '[server]\nport = 8080\n\n[[bin]]\nname = "x"\ndeps = { a = 1 }\n',
      'export DB_USER=app\nDB_HOST=db\n',
      'services:\n  db:\n    environment:\n      - A=1\n    command: |\n      run(it);\n    ports: ["5432:5432"]\n',
      '---\n- name: db\n  password: Walrus\n...\n',
      '     1→[db]\n     2→user = app\n     3→    password = hunter\n',
      '     1\t[db]\r\n     2\tuser = app\r\n     3\ttoken = x\r\n',
    ]) {
      expect(isConfigText(text), text).toBe(true);
    }
  });

  it('takes no code, no snippet cut from inside code, no prose, and no line alone for config', () => {
    for (const text of [
      'password = hunter',
      'password: CorrectHorse\n',
      'interface Login {\n  user: string;\n  password: Password;\n}\n',
      'user = input()\npassword = getpass()\n',
      'import os\nuser = admin\npassword = hunter\n',
      '        user = admin\n        password = hunter\n',
      'else:\n    token = Name\n',
      'try:\n    token = Name\n',
      'self.user = admin\nself.password = hunter\n',
      'token = element\nkind = token[0]\n',
      'a = 1;\nb = 2;\n',
      'a = [\n  1,\n]\n',
      '{"password": "x", "user": "y"}',
      'Here is the config:\nuser = app\npassword = hunter\n',
      'db:\n  password:\n',
      '',
    ]) {
      expect(isConfigText(text), text).toBe(false);
    }
  });
});
