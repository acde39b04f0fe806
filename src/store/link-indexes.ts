/**
 * The links table's secondary indexes, put off while a one-shot catch-up fills a table that is empty
 * (or nearly: an upgraded store's supersessions) and built once after it: the classic bulk-load order. Edges come in the primary key's order (a memory's
 * id is time-sortable, the walk goes by time), so the table itself grows at its end, while each index
 * entry lands at a random place in `links_to` — a 100k-memory catch-up spent more on its two indexes
 * than on the table; built from the full table they are one sort each. The indexes only speed reads
 * up: every query gives the same rows without them, so a catch-up that dies half-way leaves a store
 * that is right, only slower, until the next catch-up (`build` at its start) makes them again.
 */
import { writeTransaction, type Db } from './database.ts';
import { lazyStatement } from './statements.ts';

/** The links table's secondary indexes, as the migrations make them (a test holds them equal). */
export const LINK_INDEXES: Readonly<Record<string, string>> = {
  links_to: 'CREATE INDEX links_to ON links (to_id, kind)',
  links_by_project: 'CREATE INDEX links_by_project ON links (project_id)',
};

export function createLinkIndexes(db: Db) {
  const countUpTo = lazyStatement(db, 'SELECT COUNT(*) FROM (SELECT 1 FROM links LIMIT ?)');
  const present = lazyStatement(
    db,
    `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links'`,
  );
  const names = () => new Set(present().pluck().all() as string[]);
  return {
    /**
     * Drop the secondary indexes when the links table holds fewer than `rows` rows (checked in the
     * same transaction): whether it did. A later `build` makes them again, from every row.
     */
    deferWhileFewerThan(rows: number): boolean {
      return writeTransaction(db, () => {
        if ((countUpTo().pluck().get(rows) as number) >= rows) return false;
        const there = names();
        for (const name of Object.keys(LINK_INDEXES)) if (there.has(name)) db.exec(`DROP INDEX ${name}`);
        return true;
      });
    },
    /** Make the secondary indexes that are missing (none, nearly always); their names. */
    build(): string[] {
      const there = names();
      const missing = Object.keys(LINK_INDEXES).filter((name) => !there.has(name));
      if (missing.length > 0)
        writeTransaction(db, () => {
          for (const name of missing)
            db.exec((LINK_INDEXES[name] as string).replace('INDEX', 'INDEX IF NOT EXISTS'));
        });
      return missing;
    },
  };
}

export type LinkIndexes = ReturnType<typeof createLinkIndexes>;
