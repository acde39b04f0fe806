/**
 * Merging a note three ways — `base` (engram's last rendering), `ours` (the vault's file, perhaps
 * edited by a human) and `theirs` (engram's rendering now): per frontmatter key, the vault's value of a
 * human-owned key wins when the human changed it, and engram's value of every derived key wins; keys
 * engram does not know, comments and order stay as the vault has them. The body merges line by line
 * (overlapping hunks keep the vault's lines); the derived region is always engram's.
 */
import { merge3Text } from './diff3.ts';
import { replaceDerived } from './derived-region.ts';
import {
  frontmatterValues,
  joinNote,
  parseFrontmatter,
  sameValue,
  setKeys,
  splitNote,
  yamlText,
} from './frontmatter.ts';

export interface NoteMerge {
  text: string;
  /** Hunks of the body both sides changed differently (the vault's text was kept). */
  conflicts: number;
}

const REGION = /^%% engram:begin %%[ \t]*\r?\n[\s\S]*?^%% engram:end %%[ \t]*(?:\r?\n|$)/m;
const REGION_ALL = new RegExp(REGION.source, 'gm');
const PLACEHOLDER = '%% engram:derived %%';
const PLACEHOLDER_LINE = /^%% engram:derived %%\n?/gm;

/** Merge; `ours` must have well-formed frontmatter (a malformed note is never merged). */
export function mergeNote(
  base: string,
  ours: string,
  theirs: string,
  userKeys: ReadonlySet<string>,
): NoteMerge {
  const b = splitNote(base);
  const o = splitNote(ours);
  const t = splitNote(theirs);
  const bData = frontmatterValues(b.yaml);
  const oFm = parseFrontmatter(o.yaml);
  const tData = frontmatterValues(t.yaml);
  if (!oFm.ok) throw new Error(`mergeNote: the vault's frontmatter is malformed (${oFm.error})`);
  const baseValues: Readonly<Record<string, unknown>> = bData.ok ? bData.data : {};
  const theirValues: Readonly<Record<string, unknown>> = tData.ok ? tData.data : {};
  const updates: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(baseValues), ...Object.keys(theirValues)])) {
    const humanChanged = !sameValue(oFm.data[key], baseValues[key]);
    if (userKeys.has(key) && humanChanged) continue;
    updates[key] = theirValues[key];
  }
  const changed = setKeys(oFm.doc, updates);
  const yaml = changed ? yamlText(oFm.doc) : (o.yaml ?? '');
  // The derived region stands as one placeholder line while the bodies merge, so it stays where the
  // human put it; its content is always engram's.
  const mark = (text: string) => text.replace(REGION_ALL, `${PLACEHOLDER}\n`);
  const body = merge3Text(mark(b.body), mark(o.body), mark(t.body));
  const region = REGION.exec(t.body)?.[0] ?? '';
  const block = region === '' || region.endsWith('\n') ? region : `${region}\n`;
  let placed = false;
  let merged = body.text.replace(PLACEHOLDER_LINE, () => {
    if (placed) return '';
    placed = true;
    return block;
  });
  if (!placed) merged = replaceDerived(merged, block);
  const head =
    changed || o.yaml === null
      ? changed
        ? joinNote(yaml, '')
        : ''
      : ours.slice(0, ours.length - o.body.length);
  const text = head + merged;
  return { text, conflicts: body.conflicts };
}
