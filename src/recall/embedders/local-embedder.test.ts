// The local provider's real path: transformers.js (@huggingface/transformers, not a dependency of
// engram: installed once into a test cache, like the e2e tests' Claude Code CLI) loads a tiny BERT-shaped
// ONNX model made by the test, tokenises, runs it, mean-pools and normalises. No network at run time:
// remote models are refused unless allowed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../core/config.ts';
import { EngramError } from '../../core/errors.ts';
import { createEmbedderFromConfig } from './from-config.ts';
import { createLocalEmbedder } from './local-embedder.ts';
import { writeTinyBert } from './tiny-bert.test-support.ts';

const TRANSFORMERS = '@huggingface/transformers@4.3.1';
const cacheRoot = process.env['ENGRAM_TEST_CACHE'] || join(homedir(), '.cache', 'engram-test');
const prefix = join(cacheRoot, 'transformers-4.3.1');
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);

describe('local embedder (transformers.js, tiny local model)', () => {
  let models: string;
  beforeAll(() => {
    if (!existsSync(join(prefix, 'node_modules', '@huggingface', 'transformers', 'package.json'))) {
      mkdirSync(prefix, { recursive: true });
      // --ignore-scripts: onnxruntime-node ships its CPU binaries in the package; its install script
      // only fetches optional GPU providers.
      execFileSync(
        'npm',
        ['install', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', TRANSFORMERS],
        {
          stdio: 'ignore',
          timeout: 540_000,
        },
      );
    }
    models = mkdtempSync(join(tmpdir(), 'engram-models-'));
    writeTinyBert(models, 'engram/tiny-bert', {
      groups: [
        ['car', 'automobile', 'vehicle'],
        ['invoice', 'bill', 'billing'],
        ['cat', 'kitten'],
      ],
    });
  }, 600_000);
  afterAll(() => {
    rmSync(models, { recursive: true, force: true });
  });

  it('loads the model from the model directory and embeds a batch, normalised, by meaning', async () => {
    const e = createLocalEmbedder({
      model: 'engram/tiny-bert',
      modelPath: models,
      allowDownload: false,
      installPrefixes: [join(tmpdir(), 'engram-no-such-prefix'), prefix],
    });
    expect(e.id).toBe('local:engram/tiny-bert');
    const [car, automobile, invoice, nothing] = await e.embed(
      ['The car', 'an Automobile!', 'the invoice', 'zzz'],
      'document',
    );
    for (const v of [car, automobile, invoice, nothing]) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v?.length).toBe(8);
      expect(Math.hypot(...(v as Float32Array))).toBeCloseTo(1, 4);
    }
    expect(cosine(car as Float32Array, automobile as Float32Array)).toBeGreaterThan(0.95);
    expect(cosine(car as Float32Array, invoice as Float32Array)).toBeLessThan(0.3);
    // The loaded pipeline is reused; a second call gives the same vectors.
    const [again] = await e.embed(['The car'], 'query');
    expect([...(again as Float32Array)]).toEqual([...(car as Float32Array)]);
  });

  it('never downloads unless allowed: a missing model is a clear EMBED_FAILED naming the directory', async () => {
    const e = createLocalEmbedder({
      model: 'Xenova/all-MiniLM-L6-v2',
      modelPath: models,
      allowDownload: false,
      installPrefixes: [prefix],
    });
    const error = await e.embed(['x'], 'document').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(EngramError);
    expect((error as EngramError).code).toBe('EMBED_FAILED');
    expect((error as EngramError).message).toContain(
      `cannot load the local model Xenova/all-MiniLM-L6-v2 from ${models}`,
    );
    expect((error as EngramError).hint).toMatch(/embed\.allowDownload/);
  });

  it('is what embed.provider=local builds, finding the library under $ENGRAM_HOME/lib', async () => {
    const config = resolveConfig({
      env: {
        ENGRAM_EMBED_PROVIDER: 'local',
        ENGRAM_EMBED_MODEL: 'engram/tiny-bert',
        ENGRAM_EMBED_MODEL_PATH: models,
      },
    });
    const home = mkdtempSync(join(tmpdir(), 'engram-home-'));
    try {
      const without = createEmbedderFromConfig(config, { env: {}, engramHome: home });
      expect(without?.id).toBe('local:engram/tiny-bert');
      await expect(without?.embed(['kitten'], 'document')).rejects.toThrow(/not installed/);
      // `npm install --prefix ~/.engram/lib @huggingface/transformers`, as the README says: a link here.
      symlinkSync(prefix, join(home, 'lib'));
      const e = createEmbedderFromConfig(config, { env: {}, engramHome: home });
      const [kitten, cat] = await (e as NonNullable<typeof e>).embed(['kitten', 'cat'], 'document');
      expect(cosine(kitten as Float32Array, cat as Float32Array)).toBeGreaterThan(0.95);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
