import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { deadline } from './deadline.ts';

const fired = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });

describe('deadline', () => {
  it('fires after its time limit with a TimeoutError, and says it expired', async () => {
    const d = deadline(20);
    const reason = await fired(d.signal);
    expect((reason as DOMException).name).toBe('TimeoutError');
    expect(d.expired()).toBe(true);
    d.clear();
  });

  it('fires when its parent fires, with the parent reason, not as expired', async () => {
    const parent = new AbortController();
    const d = deadline(60_000, parent.signal);
    parent.abort(new Error('stop'));
    expect(((await fired(d.signal)) as Error).message).toBe('stop');
    expect(d.expired()).toBe(false);
    d.clear();
  });

  it('is already aborted when the parent was', () => {
    const parent = new AbortController();
    parent.abort();
    const d = deadline(60_000, parent.signal);
    expect(d.signal.aborted).toBe(true);
    d.clear();
  });

  it('once cleared, neither the timer nor the parent aborts it', async () => {
    const parent = new AbortController();
    const d = deadline(10, parent.signal);
    d.clear();
    parent.abort();
    await new Promise((r) => setTimeout(r, 30));
    expect(d.signal.aborted).toBe(false);
  });

  it('still ends a request to a server that hangs while garbage collections run', async () => {
    // Node's AbortSignal.timeout joined by AbortSignal.any loses this race: the joined signal is collected
    // and the request waits forever.
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const collecting = setInterval(gc, 5);
    try {
      const parent = new AbortController();
      const d = deadline(150, parent.signal);
      const outcome = await fetch(`http://127.0.0.1:${port}/`, {
        method: 'POST',
        body: 'x',
        signal: d.signal,
      }).then(
        () => 'answered',
        (error: Error) => error.name,
      );
      d.clear();
      expect(outcome).toBe('TimeoutError');
    } finally {
      clearInterval(collecting);
      server.closeAllConnections();
      server.close();
    }
  });
});
