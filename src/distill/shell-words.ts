/**
 * A shell line → its simple commands, each with its words (quotes removed, quoted text kept whole),
 * its redirections, and the operator that joins it to the next (`&&`, `||`, `;`, `|`, `&`). Heredoc
 * bodies are not commands (the command that reads one is marked `heredoc`); `$(…)` and backquotes
 * stay inside their word. Rough by design: it reads what agents type, not every shell grammar.
 */

export type Joiner = '&&' | '||' | ';' | '|' | '&' | '';

export interface SimpleCommand {
  /** Words without quotes, env assignments included (`FOO=1 npm test` → `FOO=1`, `npm`, `test`). */
  words: string[];
  /** Targets of output redirections (`> /tmp/log`, `2>&1` is not one). */
  writes: string[];
  /** It reads a heredoc (`cat > x.go <<'EOF'`, `go run /dev/stdin <<EOF`). */
  heredoc: boolean;
  /** The operator after it ('' for the last). */
  joiner: Joiner;
  /** The command as written (trimmed, heredoc body left out). */
  text: string;
}

/** Heredoc bodies removed (`<<'EOF' … EOF` → `<<EOF`), so their lines are not read as commands. */
function withoutHeredocBodies(line: string): string {
  return line.replace(/<<-?\s*(['"]?)(\w+)\1([^\n]*)\n[\s\S]*?\n\s*\2\s*(?=\n|$)/g, '<<$2$3');
}

/** Split a line into simple commands. Never throws. */
export function simpleCommands(line: string): SimpleCommand[] {
  const text = withoutHeredocBodies(line);
  const out: SimpleCommand[] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let writes: string[] = [];
  let heredoc = false;
  let start = 0;
  let pendingRedirect: 'write' | 'read' | null = null;
  const endWord = () => {
    if (!inWord) return;
    if (pendingRedirect === 'write') writes.push(word);
    else if (pendingRedirect === null) words.push(word);
    pendingRedirect = null;
    word = '';
    inWord = false;
  };
  const endCommand = (joiner: Joiner, at: number) => {
    endWord();
    const raw = text.slice(start, at).trim();
    if (words.length > 0) out.push({ words, writes, heredoc, joiner, text: raw });
    else if (out.length > 0 && joiner !== '') {
      const last = out[out.length - 1] as SimpleCommand;
      if (last.joiner === '') last.joiner = joiner;
    }
    words = [];
    writes = [];
    heredoc = false;
    pendingRedirect = null;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1] ?? '';
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      const end = close < 0 ? text.length : close;
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '$' && next === '(') {
      // Command substitution: kept inside the word, nested parentheses balanced.
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) break;
      }
      word += text.slice(i, j + 1);
      inWord = true;
      i = j + 1;
      continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      const end = close < 0 ? text.length : close;
      word += text.slice(i, end + 1);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (c === '\\' && next !== '') {
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
      i += 2;
      continue;
    }
    if (c === '#' && !inWord) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (c === '&' && next === '&') {
      endCommand('&&', i);
      i += 2;
      start = i;
      continue;
    }
    if (c === '|' && next === '|') {
      endCommand('||', i);
      i += 2;
      start = i;
      continue;
    }
    if (c === '|') {
      endCommand('|', i);
      i += next === '&' ? 2 : 1;
      start = i;
      continue;
    }
    if (c === ';' || c === '\n') {
      endCommand(';', i);
      i++;
      start = i;
      continue;
    }
    if (c === '&' && next === '>') {
      endWord();
      pendingRedirect = 'write';
      i += next === '>' && text[i + 2] === '>' ? 3 : 2;
      continue;
    }
    if (c === '&' && !inWord) {
      endCommand('&', i);
      i++;
      start = i;
      continue;
    }
    if (c === '>' || (c === '<' && next !== '<') || (/\d/.test(c) && !inWord && next === '>')) {
      endWord();
      let j = /\d/.test(c) ? i + 1 : i;
      const read = text[j] === '<';
      j++;
      if (text[j] === '>') j++;
      if (text[j] === '&') {
        // 2>&1, >&2: a descriptor, not a file.
        j++;
        while (j < text.length && /[\d-]/.test(text[j] as string)) j++;
        i = j;
        continue;
      }
      pendingRedirect = read ? 'read' : 'write';
      i = j;
      continue;
    }
    if (c === '<' && next === '<') {
      endWord();
      heredoc = true;
      let j = i + 2;
      if (text[j] === '<') {
        // A here-string (<<< word): the word is data, read and dropped.
        pendingRedirect = 'read';
        i = j + 1;
        continue;
      }
      if (text[j] === '-') j++;
      while (text[j] === ' ') j++;
      const m = /^(['"]?)\w+\1/.exec(text.slice(j));
      i = j + (m ? m[0].length : 0);
      continue;
    }
    if (c === '(' || c === ')') {
      endWord();
      i++;
      continue;
    }
    if ((c === '{' || c === '}') && !inWord && /^\s?$/.test(next)) {
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      endWord();
      i++;
      continue;
    }
    word += c;
    inWord = true;
    i++;
  }
  endCommand('', text.length);
  return out;
}

/** `bash -c "npm test"`, `sh -lc '…'`: the inner line, when the words are a shell running one. */
export function innerShellLine(words: readonly string[]): string | null {
  const [head = '', ...rest] = words;
  if (!/^(?:ba|z|da|k)?sh$/.test(head.split('/').pop() ?? '')) return null;
  const flag = rest.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w));
  if (flag < 0) return null;
  return rest[flag + 1] ?? null;
}
