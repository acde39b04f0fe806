/**
 * A tiny BERT-shaped model made on the spot, in the layout transformers.js loads from a local model
 * directory: `config.json`, `tokenizer.json` (WordPiece, BERT normaliser and pre-tokeniser, [CLS] …
 * [SEP]), `tokenizer_config.json` and `onnx/model.onnx`. The ONNX graph is one Gather (token id →
 * row of an embedding table) producing `last_hidden_state`, written with a minimal protobuf encoder;
 * rows are chosen so that words of one `group` point the same way. This lets tests run the local
 * embedder's real loading and inference path without downloading a model.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

// --- a minimal protobuf writer (varints and length-delimited fields are all ONNX needs here) ---
function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, data: Uint8Array | number[]) => [
  ...key(field, 2),
  ...varint(data.length),
  ...data,
];
const str = (field: number, text: string) => bytes(field, [...Buffer.from(text, 'utf8')]);
const msg = (field: number, parts: number[]) => bytes(field, parts);

const FLOAT = 1;
const INT64 = 7;
/** ValueInfoProto: a tensor of `elemType` whose dims are names (dynamic) or sizes. */
function valueInfo(field: number, name: string, elemType: number, dims: (string | number)[]): number[] {
  const shape = dims.flatMap((d) => msg(1, typeof d === 'string' ? str(2, d) : int(1, d)));
  return msg(field, [...str(1, name), ...msg(2, msg(1, [...int(1, elemType), ...msg(2, shape)]))]);
}

export interface TinyBertOptions {
  /** Words that mean the same thing share a direction (plus a little per-word noise). */
  groups: string[][];
  hidden?: number;
}

/** Write the model into `<modelPath>/<name>/`; returns the vocabulary. */
export function writeTinyBert(modelPath: string, name: string, o: TinyBertOptions): string[] {
  const hidden = o.hidden ?? Math.max(8, o.groups.length + 2);
  const words = o.groups.flat();
  const vocab = [...SPECIAL, ...words];
  const table = new Float32Array(vocab.length * hidden);
  vocab.forEach((word, row) => {
    const group = o.groups.findIndex((g) => g.includes(word));
    // Special tokens and unknown words share one faint "nothing" direction in the last dimension.
    table[row * hidden + (group === -1 ? hidden - 1 : group)] = group === -1 ? 0.01 : 1;
    if (group !== -1) table[row * hidden + hidden - 2] = 0.05 * ((row % 5) - 2);
  });
  const tensor = msg(5, [
    ...int(1, vocab.length),
    ...int(1, hidden),
    ...int(2, FLOAT),
    ...str(8, 'embeddings'),
    ...bytes(9, new Uint8Array(table.buffer)),
  ]);
  const node = msg(1, [
    ...str(1, 'embeddings'),
    ...str(1, 'input_ids'),
    ...str(2, 'last_hidden_state'),
    ...str(3, 'gather'),
    ...str(4, 'Gather'),
  ]);
  const graph = msg(7, [
    ...node,
    ...str(2, 'tiny-bert'),
    ...tensor,
    ...valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
    ...valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', hidden]),
  ]);
  const model = [
    ...int(1, 8),
    ...str(2, 'engram-tests'),
    ...graph,
    ...msg(8, [...str(1, ''), ...int(2, 13)]),
  ];

  const dir = join(modelPath, name);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), Uint8Array.from(model));
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: hidden,
      vocab_size: vocab.length,
      num_attention_heads: 1,
      num_hidden_layers: 1,
      max_position_embeddings: 512,
    }),
  );
  const special = (id: string) => ({ id, type_id: 0 });
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: SPECIAL.map((content, id) => ({
        id,
        content,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      })),
      normalizer: {
        type: 'BertNormalizer',
        clean_text: true,
        handle_chinese_chars: true,
        strip_accents: null,
        lowercase: true,
      },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: {
        type: 'TemplateProcessing',
        single: [
          { SpecialToken: special('[CLS]') },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: special('[SEP]') },
        ],
        pair: [
          { SpecialToken: special('[CLS]') },
          { Sequence: { id: 'A', type_id: 0 } },
          { SpecialToken: special('[SEP]') },
          { Sequence: { id: 'B', type_id: 1 } },
          { SpecialToken: { id: '[SEP]', type_id: 1 } },
        ],
        special_tokens: {
          '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
          '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
        },
      },
      decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
      model: {
        type: 'WordPiece',
        unk_token: '[UNK]',
        continuing_subword_prefix: '##',
        max_input_chars_per_word: 100,
        vocab: Object.fromEntries(vocab.map((w, i) => [w, i])),
      },
    }),
  );
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
  return vocab;
}
