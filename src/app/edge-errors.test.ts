import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngramError } from '../core/errors.ts';
import { edgeError } from './edge-errors.ts';

/** A real SQLITE_BUSY: a second connection writes while the first holds the write lock. */
function realBusyError(): unknown {
  const dir = mkdtempSync(join(tmpdir(), 'engram-busy-'));
  const a = new Database(join(dir, 'x.db'));
  const b = new Database(join(dir, 'x.db'), { timeout: 0 });
  try {
    a.exec('CREATE TABLE t (x)');
    a.exec('BEGIN IMMEDIATE');
    try {
      b.exec('INSERT INTO t VALUES (1)');
    } catch (error) {
      return error;
    }
    throw new Error('the second write was not refused');
  } finally {
    a.close();
    b.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the one error table every edge shows', () => {
  it('a busy database is STORE_BUSY on every edge: exit 75, HTTP 503, try again', () => {
    const e = edgeError(realBusyError());
    expect(e).toMatchObject({ code: 'STORE_BUSY', exit: 75, http: 503, fault: false });
    expect(e.message).toMatch(/^the database is busy/);
    expect(e.mcpText).toMatch(/^Error: STORE_BUSY: the database is busy/);
    expect(e.mcpText).toMatch(/How to fix: The database is busy; try again/);
  });

  it('an EngramError keeps its message and own hint; the table gives the rest', () => {
    const e = edgeError(new EngramError('NOT_FOUND', 'no memory with id obs_x', { hint: 'Search first.' }));
    expect(e).toEqual({
      code: 'NOT_FOUND',
      message: 'no memory with id obs_x',
      hint: 'Search first.',
      exit: 1,
      http: 404,
      fault: false,
      mcpText: 'Error: NOT_FOUND: no memory with id obs_x\nHow to fix: Search first.',
    });
    expect(edgeError(new EngramError('INPUT_INVALID', 'bad'))).toMatchObject({ exit: 2, http: 400 });
    expect(edgeError(new EngramError('CONFIG_UNKNOWN_KEY', 'unknown key'))).toMatchObject({
      exit: 2,
      http: 404,
    });
  });

  it('anything else is a fault on engram’s side, never the caller’s arguments', () => {
    const e = edgeError(new TypeError('x is undefined'));
    expect(e).toMatchObject({ code: 'INTERNAL', exit: 1, http: 500, fault: true });
    expect(e.mcpText).toMatch(/^Error: TypeError: x is undefined\nHow to fix: This is a fault on engram/);
    const damaged = edgeError(Object.assign(new Error('file is not a database'), { code: 'SQLITE_NOTADB' }));
    expect(damaged).toMatchObject({ code: 'STORE_DAMAGED', http: 503, fault: false });
    expect(damaged.message).toBe('the database is damaged (file is not a database)');
  });
});
