/**
 * A transaction's final statement (database finishWith) is sent with its COMMIT in one message: it
 * commits with the transaction's other work or rolls all of it back, and the literals it is built from
 * (sqlLiteral) read back as exactly the values given. A push's audit row goes in this way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../test/support/team-postgres.ts';
import {
  appTransaction,
  createPool,
  finishWith,
  ownerTransaction,
  sqlLiteral,
  type Pool,
} from './database.ts';

let postgres: TestPostgres;
let db: string;
let pool: Pool;

beforeAll(async () => {
  postgres = await startTestPostgres();
  db = await postgres.createDatabase();
  await postgres.query(
    db,
    `DO $$ BEGIN
       IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'engram_app') THEN
         CREATE ROLE engram_app NOLOGIN;
       END IF;
     END $$;
     CREATE TABLE notes (n integer PRIMARY KEY);
     GRANT SELECT, INSERT ON notes TO engram_app`,
  );
  pool = createPool(db, 2);
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

const notes = async () =>
  (await postgres.query<{ n: number }>(db, 'SELECT n FROM notes ORDER BY n')).rows.map((r) => r.n);

describe('a final statement sent with the COMMIT', () => {
  it('commits with the rest of the transaction, as the role the transaction runs as', async () => {
    const role = await appTransaction(pool, async (tx) => {
      await tx.query('INSERT INTO notes VALUES (1)');
      finishWith(tx, `INSERT INTO notes SELECT 2 WHERE current_user = 'engram_app'`);
      return (await tx.query<{ r: string }>('SELECT current_user AS r')).rows[0]?.r;
    });
    expect(role).toBe('engram_app');
    expect(await notes()).toEqual([1, 2]);
  });

  it('rolls the whole transaction back when it fails, and the connection serves the next one', async () => {
    await expect(
      appTransaction(pool, async (tx) => {
        await tx.query('INSERT INTO notes VALUES (3)');
        finishWith(tx, 'INSERT INTO notes VALUES (1)'); // a duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      ownerTransaction(pool, async (tx) => {
        await tx.query('INSERT INTO notes VALUES (4)');
        finishWith(tx, 'SELECT 1 / 0');
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await notes()).toEqual([1, 2]);
    await appTransaction(pool, (tx) => tx.query('INSERT INTO notes VALUES (5)'));
    expect(await notes()).toEqual([1, 2, 5]);
  });

  it('is never run when the transaction fails after it was given', async () => {
    await expect(
      appTransaction(pool, async () => {
        // (no statement of its own: only the final one, then a failure)
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(
      appTransaction(pool, async (tx) => {
        finishWith(tx, 'INSERT INTO notes VALUES (6)');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await notes()).toEqual([1, 2, 5]);
  });

  it('is one per transaction', async () => {
    await expect(
      appTransaction(pool, async (tx) => {
        finishWith(tx, 'INSERT INTO notes VALUES (7)');
        finishWith(tx, 'INSERT INTO notes VALUES (8)');
      }),
    ).rejects.toThrow(/one final statement/);
    expect(await notes()).toEqual([1, 2, 5]);
  });
});

describe('sqlLiteral', () => {
  it('reads back as exactly the value given', async () => {
    const texts = [
      '',
      "it's",
      "''; COMMIT; DROP TABLE notes; --",
      'back\\slash \\\\ \\x41 \\n',
      "E'\\''",
      '$$ $tag$ "quoted" {a,b}',
      'line\nbreak\r\ttab \u0001 \u2028\u2029 \u{1F600} é',
    ];
    for (const text of texts) {
      const r = await postgres.query<{ same: boolean; v: string }>(
        db,
        `SELECT ${sqlLiteral(text)} = $1 AS same, ${sqlLiteral(text)} AS v`,
        [text],
      );
      expect(r.rows[0]).toEqual({ same: true, v: text });
    }
    const n = await postgres.query<{ v: string; z: null }>(
      db,
      `SELECT ${sqlLiteral(1_795_977_733_953)}::bigint AS v, ${sqlLiteral(null)} AS z`,
    );
    expect(n.rows[0]).toEqual({ v: '1795977733953', z: null });
  });

  it('refuses what no literal may hold: a NUL, a number that is not whole', () => {
    expect(() => sqlLiteral('a\u0000b')).toThrow(/NUL/);
    expect(() => sqlLiteral(1.5)).toThrow(/whole/);
    expect(() => sqlLiteral(Number.NaN)).toThrow(/whole/);
  });
});
