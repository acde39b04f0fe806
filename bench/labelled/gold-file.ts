/**
 * Reads the gold lists of the labelled sessions (`gold/*.md` in the dataset, outside the repository):
 * one table row per item, `| id | kinds | text |`, kinds separated by `/` (e.g. `UP/DE`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const GOLD_KINDS = ['TS', 'NX', 'DE', 'GO', 'CV', 'CM', 'UP'] as const;
export type GoldKind = (typeof GOLD_KINDS)[number];

export interface GoldEntry {
  id: string;
  kinds: GoldKind[];
  text: string;
}

const isKind = (k: string): k is GoldKind => (GOLD_KINDS as readonly string[]).includes(k);

/** The items of one gold file, in file order; throws on a row whose kinds are not the README's. */
export function readGoldFile(datasetDir: string, file: string): GoldEntry[] {
  const text = readFileSync(join(datasetDir, 'gold', file), 'utf8');
  const entries: GoldEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^\|\s*([A-Z]\d+-\d+)\s*\|\s*([A-Z/]+)\s*\|\s*(.+?)\s*\|\s*$/.exec(line);
    if (!m) continue;
    const [, id, kindText, itemText] = m as unknown as [string, string, string, string];
    const kinds = kindText.split('/').map((k) => k.trim());
    const bad = kinds.filter((k) => !isKind(k));
    if (bad.length > 0) throw new Error(`${file}: ${id} has unknown kind(s) ${bad.join(', ')}`);
    entries.push({ id, kinds: kinds as GoldKind[], text: itemText });
  }
  if (entries.length === 0) throw new Error(`${file}: no gold items found`);
  return entries;
}
