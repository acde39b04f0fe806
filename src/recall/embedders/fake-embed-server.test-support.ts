/**
 * A loopback embedding server for tests, speaking Ollama's `/api/embed` and OpenAI's `/v1/embeddings`
 * with deterministic vectors: a hashed bag of words (words mapped through `synonyms` first, so tests
 * can make texts with no word in common land close together). Its behaviour can be switched to
 * failing modes at any time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeMode = 'ok' | 'error500' | 'hang' | 'malformed' | 'wrong-count';

export interface FakeEmbedServer {
  url: string;
  mode: FakeMode;
  /** Texts containing this word are refused with HTTP 400 (as a model refuses an input it cannot take). */
  rejectWord: string | null;
  requests: { path: string; body: { model?: string; input?: string[] }; auth: string | undefined }[];
  close(): Promise<void>;
}

export const FAKE_DIMS = 64;

export function hashedBagOfWords(text: string, synonyms: Record<string, string> = {}): number[] {
  const v = new Array<number>(FAKE_DIMS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = synonyms[raw] ?? raw;
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
    const slot = (h >>> 0) % FAKE_DIMS;
    v[slot] = (v[slot] ?? 0) + 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export async function startFakeEmbedServer(synonyms: Record<string, string> = {}): Promise<FakeEmbedServer> {
  const hanging: ServerResponse[] = [];
  const state: FakeEmbedServer = {
    url: '',
    mode: 'ok',
    rejectWord: null,
    requests: [],
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const body = JSON.parse(text) as { model?: string; input?: string[] };
    state.requests.push({ path: req.url ?? '', body, auth: req.headers.authorization });
    if (state.mode === 'hang') {
      hanging.push(res);
      return;
    }
    if (state.mode === 'error500') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"model crashed"}');
      return;
    }
    const rejectWord = state.rejectWord;
    if (rejectWord && (body.input ?? []).some((t) => t.toLowerCase().includes(rejectWord))) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"input too long"}');
      return;
    }
    if (state.mode === 'malformed') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"embeddings": [[0.1, "x"]], "data": 5');
      return;
    }
    const inputs = body.input ?? [];
    const vectors = (state.mode === 'wrong-count' ? inputs.slice(1) : inputs).map((t) =>
      hashedBagOfWords(t, synonyms),
    );
    const reply =
      req.url === '/api/embed'
        ? { model: body.model, embeddings: vectors }
        : req.url === '/v1/embeddings'
          ? {
              object: 'list',
              model: body.model,
              // Out of order on purpose: clients must sort by index.
              data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })).reverse(),
            }
          : null;
    if (!reply) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
