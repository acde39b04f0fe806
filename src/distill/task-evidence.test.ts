import { describe, expect, it } from 'vitest';
import { doneByWork, itemNames, listAfterWork, recordedWork } from './task-evidence.ts';

describe('task-list items closed by the work that did what they name', () => {
  it('reads the identifiers an item names, not its prose', () => {
    expect(itemNames('Implement click(x,y), type(text), screenshot() primitives')).toEqual({
      code: ['click', 'type', 'screenshot'],
      proper: [],
    });
    // A short acronym names a kind of thing (API, UI, VNC), not one thing of the project.
    expect(itemNames('Set up Docker container with Playwright and VNC')).toEqual({
      code: [],
      proper: ['Docker', 'Playwright'],
    });
    // "Download/set" is two words, not a path; TodoMVC is written as code.
    expect(itemNames('Download/set up TodoMVC in container')).toEqual({ code: ['TodoMVC'], proper: [] });
    expect(itemNames('Add `retryFetch` to src/net/client.ts')).toEqual({
      code: ['retryFetch', 'src/net/client.ts'],
      proper: [],
    });
    // The first word of the item or of a clause is capitalised as prose.
    expect(itemNames('Test: Can agent complete happy-path scenario successfully?')).toEqual({
      code: [],
      proper: [],
    });
  });

  const browserWork = {
    files: ['src/computer-use/browser.ts', 'docker/todomvc/serve.sh', 'docker/Containerfile'],
    symbols: ['PlaywrightComputerUse', 'initialize', 'click', 'type', 'press', 'screenshot'],
  };

  it('closes an item when the work defined or changed every name of code it gives, or a folder or file its proper name is', () => {
    expect(doneByWork('Implement click(x,y), type(text), screenshot() primitives', browserWork)).toBe(true);
    expect(doneByWork('Download/set up TodoMVC in container', browserWork)).toBe(true);
    expect(doneByWork('Set up Docker container with Playwright and VNC', browserWork)).toBe(true);
    expect(doneByWork('Rework `./run.sh`', { files: ['run.sh'], symbols: [] })).toBe(true);
  });

  it('keeps open an item that names nothing, or code the work did not touch', () => {
    // Names nothing of the project: only the list itself can close it.
    expect(doneByWork('Test: Can agent complete happy-path scenario successfully?', browserWork)).toBe(false);
    // One name of code the work did not define (drag) is enough to keep it open.
    expect(doneByWork('Implement click(x,y) and drag(x1,y1,x2,y2)', browserWork)).toBe(false);
    // The file was changed, the function it names was not.
    expect(
      doneByWork('Add `retryFetch` to src/net/client.ts', {
        files: ['src/net/client.ts'],
        symbols: ['parseReply'],
      }),
    ).toBe(false);
    // A name is matched whole: `Playwright` is not `PlaywrightComputerUse`, `docs` not `docker`.
    expect(doneByWork('Pin the Playwright version', browserWork)).toBe(false);
    expect(doneByWork('Write the Docs page', browserWork)).toBe(false);
    expect(doneByWork('Update the API docs for Stripe', { files: ['src/api/client.ts'], symbols: [] })).toBe(
      false,
    );
  });

  it('reads what a stored memory records of work: files, and symbols of its file facts', () => {
    expect(
      recordedWork({
        facts: [
          'created src/agent/oracle.ts (181 lines): OracleConfig, VisualOracle, evaluate (+4 more)',
          'src/index.ts: changed main; added loadModel',
          'changed: src/agent/scenario-agent.ts (buildTools)',
          'committed 6f035fd: Initial implementation (on main)',
        ],
        filesModified: ['src/agent/oracle.ts', 'src/index.ts', 'src/agent/scenario-agent.ts'],
      }),
    ).toEqual({
      files: ['src/agent/oracle.ts', 'src/index.ts', 'src/agent/scenario-agent.ts'],
      symbols: ['main', 'loadModel', 'OracleConfig', 'VisualOracle', 'evaluate', 'buildTools'],
    });
  });

  it('leaves a stored list with the items later work did taken off, or archives it when none is left', () => {
    const stored = {
      facts: [
        '[ ] Set up Docker container with Playwright and VNC',
        '[ ] Download/set up TodoMVC in container',
        '[ ] Test: Can agent complete happy-path scenario successfully?',
      ],
    };
    expect(listAfterWork(stored, browserWork)).toEqual({
      title: 'Open tasks (1 left): Test: Can agent complete happy-path scenario successfully?',
      narrative:
        "Still open on the session's task list after later work did what 2 of its items named: Test: Can agent complete happy-path scenario successfully?.",
      facts: ['[ ] Test: Can agent complete happy-path scenario successfully?'],
    });
    expect(listAfterWork({ facts: stored.facts.slice(0, 2) }, browserWork)).toEqual({ archive: true });
    expect(listAfterWork(stored, { files: ['README.md'], symbols: ['Usage'] })).toBeNull();
  });
});
