/** Lines of a Claude Code transcript recognised without parsing them (see `read-jsonl.ts`'s `peek`). */
import type { SkippedLine } from './read-jsonl.ts';

/**
 * Record types engram never reads, recognised from the raw line so they need not be parsed (in a long
 * session most lines are progress records). Only an exact top-level shape counts; anything unsure is
 * parsed as usual. A progress record's links (`parentUuid` first in the envelope, `uuid` last) are
 * read off its ends, so the record chain stays whole.
 */
export function peekSkippedType(line: string): SkippedLine | null {
  if (line.startsWith('{"type":"file-history-snapshot"')) return { type: 'file-history-snapshot' };
  // Only an enqueue carries words (what the user typed while the agent worked).
  if (line.startsWith('{"type":"queue-operation"') && !line.includes('"operation":"enqueue"'))
    return { type: 'queue-operation' };
  // The envelope comes first: a progress record names its type within its first few hundred bytes, so
  // only that much is searched (lastIndexOf from a bound) instead of scanning long lines to the end.
  if (line.lastIndexOf('"type":"progress","data":{', 1024) === -1) return null;
  const parent = /^\{"parentUuid":(?:null|"([^"]{1,80})")/.exec(line);
  const uuid = /"uuid":"([^"]{1,80})"\}$/.exec(line.slice(-120));
  return {
    type: 'progress',
    ...(uuid?.[1] ? { uuid: uuid[1] } : {}),
    ...(parent ? { parentUuid: parent[1] ?? null } : {}),
  };
}
