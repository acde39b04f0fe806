import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../core/transcript.ts';
import { createHeuristicDistiller } from './heuristic-distiller.ts';
import { distilTranscript } from './transcript-distiller.ts';

let n = 0;
const bash = (command: string, text: string, isError = false): TranscriptEntry => ({
  kind: 'tool_call',
  uuid: `t${++n}`,
  at: 1_770_000_000_000 + n * 1000,
  id: `id${n}`,
  name: 'Bash',
  input: { command },
  result: { text, isError, structured: null, uuid: `r${n}` },
  sidechain: false,
});
const gotchas = (entries: TranscriptEntry[]) =>
  distilTranscript(entries, [], {
    distiller: createHeuristicDistiller(),
    projectRoot: '/home/dev/dex',
    sessionId: 's-probe',
    previousSummary: null,
  }).memories.filter((m) => m.draft.type === 'gotcha');
const prompt: TranscriptEntry = {
  kind: 'prompt',
  uuid: 'p0',
  at: 1_770_000_000_000,
  text: 'verify that address',
};
const TRACEBACK =
  "Exit code 1\nTraceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nAttributeError: 'str' object has no attribute 'get'";

describe('inline code the assistant runs to look at something', () => {
  it('keeps no gotcha when it worked only as other inline code: the probe was rewritten', () => {
    const contract = 'https://api.example.test/api?module=contract&action=getsourcecode&address=0xa5e0';
    expect(
      gotchas([
        prompt,
        bash(
          `curl -s "${contract}" | python3 -c "import sys,json; d=json.load(sys.stdin); r=d['result'][0]; print('ContractName:', r.get('ContractName','?'))"`,
          TRACEBACK,
          true,
        ),
        bash(
          `curl -s "${contract}" | head -c 500`,
          '{"status":"0","message":"NOTOK","result":"You are using a deprecated V1 endpoint, switch to Etherscan API V2"}',
        ),
        bash(
          `curl -s -X POST https://rpc.example.test -H "Content-Type: application/json" -d '[{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0xa5e0","data":"0xc45a0155"},"latest"]}]' | python3 -c "import sys,json; [print(x['id'], x['result']) for x in json.load(sys.stdin)]"`,
          'id=1: 0x000',
        ),
      ]),
    ).toEqual([]);
  });

  it('keeps the gotcha when the same inline code worked after a step fixed what it needed', () => {
    const probe = 'python3 -c "import requests; print(requests.__version__)"';
    const found = gotchas([
      prompt,
      bash(probe, "Exit code 1\nModuleNotFoundError: No module named 'requests'", true),
      bash('pip install requests', 'Successfully installed requests-2.32.3'),
      bash(probe, '2.32.3'),
    ]);
    expect(found.map((g) => g.draft.facts.find((f) => f.startsWith('error: ')))).toEqual([
      "error: ModuleNotFoundError: No module named 'requests'",
    ]);
  });
});
