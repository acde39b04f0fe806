import { describe, expect, it } from 'vitest';
import { extractAll, userWordsOfTurn } from '../transcript-distiller.ts';
import { extractUserLanguage, languageOf, notEnglish } from './user-language.ts';
import { bash, prompt, say } from './test-entries.test-support.ts';

describe('the language a message is written in', () => {
  it('is told by the letters’ script, or in Latin letters by the language’s function words', () => {
    expect(
      languageOf(
        '旧と新Vaultのアドレスなどをもとに、これまで何回デモのトランザクションが実行されたかを集計したいです。',
      ),
    ).toBe('Japanese');
    expect(languageOf('请帮我检查一下为什么构建失败了，我们昨天还可以正常部署。')).toBe('Chinese');
    expect(languageOf('빌드가 실패하는 이유를 찾아서 고쳐 주세요. 어제는 잘 됐어요.')).toBe('Korean');
    expect(languageOf('Почему тесты падают после обновления зависимостей? Вчера всё работало.')).toBe(
      'Russian',
    );
    expect(languageOf('Чому тести падають після оновлення залежностей? Вчора все працювало.')).toBe(
      'Ukrainian',
    );
    expect(
      languageOf(
        '¿Por qué falla el build? Quiero que los tests pasen antes de hacer el commit, pero no sé qué está mal.',
      ),
    ).toBe('Spanish');
    expect(
      languageOf(
        'Peux-tu corriger le test qui échoue? Je pense que le problème est dans la configuration pour le cache.',
      ),
    ).toBe('French');
    expect(
      languageOf(
        'Kannst du bitte den Test reparieren? Ich glaube, das Problem ist die Konfiguration und nicht der Code.',
      ),
    ).toBe('German');
    expect(
      languageOf('Can you fix the failing test? I think the problem is the cache config, not the code.'),
    ).toBe('English');
  });

  it('leaves out code, paths, links and identifiers, and tells nothing of a message too short', () => {
    expect(languageOf('`npm run build` /src/app/page.tsx https://example.test/a 6i5SyF8HqPz3 ok')).toBe('');
    // A Japanese request around English code is Japanese.
    expect(
      languageOf(
        'このエラーを直してください。昨日までは動いていました: ```\nTypeError: Cannot read properties of undefined (reading "map")\n    at render (src/app.tsx:12)\n```',
      ),
    ).toBe('Japanese');
  });
});

describe('the user’s language as a preference of the project', () => {
  const japanese = [
    prompt('/orchestrator @CLAUDE.md を最新の状態にアップデートしてください', { command: '/orchestrator' }),
    say('CLAUDE.mdを確認して、現在のコードに合わせて更新します。'),
    bash('cat package.json', '{ "name": "todo-app" }'),
    say('CLAUDE.mdファイルを最新の状態にアップデートしました。Next.js 15 と React 19 に合わせています。'),
    prompt('ありがとうございます。型チェックのコマンドも確認してもらえますか？'),
    say('`npm run type-check` は存在しないので削除しました。代わりに `npx tsc --noEmit` を使います。'),
  ];

  it('keeps that the user writes Japanese and is answered in it, in the user’s trust, once per language', () => {
    const [memory, ...rest] = extractUserLanguage(japanese);
    expect(rest).toEqual([]);
    expect(memory?.draft).toMatchObject({
      type: 'preference',
      title: 'The user writes in Japanese and is answered in Japanese',
      narrative:
        'Every message the user typed this session is in Japanese, and the assistant answered in Japanese.',
      facts: ['language: Japanese', 'answers: Japanese'],
      trust: 'user',
    });
    // The same reading from the whole transcript and from a turn's hook events alone.
    expect(extractAll(japanese).filter((x) => x.draft.subject === 'user-language')).toHaveLength(1);
  });

  it('says nothing for English, or when the user writes one language as often as another', () => {
    expect(
      extractUserLanguage([
        prompt('Please fix the failing cart test, the total is off by one cent.'),
        say('The total now rounds once, at the end.'),
      ]),
    ).toEqual([]);
    expect(
      extractUserLanguage([
        prompt('Please fix the failing cart test, the total is off by one cent.'),
        prompt('カートのテストがまだ失敗しています。確認してください。'),
      ]),
    ).toEqual([]);
  });

  it('gives the same memory when only the hook’s prompt could be read', () => {
    const live = userWordsOfTurn(
      [
        {
          seq: 1,
          sessionId: 's1',
          projectId: '' as never,
          cwd: '/home/dev/app',
          transcriptPath: null,
          at: 10,
          attempts: 0,
          event: {
            kind: 'prompt' as const,
            prompt: 'ビルドが失敗する原因を調べて、直してください。昨日までは動いていました。',
          },
        },
      ],
      '',
    );
    expect(live.filter((x) => x.draft.subject === 'user-language').map((x) => x.draft.title)).toEqual([
      'The user writes in Japanese',
    ]);
  });
});

describe('a message plainly not in English', () => {
  it('is one in another script or whose function words are another language’s, not a short or English one', () => {
    expect(
      notEnglish(
        'mira estos resultados: la documentación dice que la proporción es de 4%, ¿eso hace que no sea representativo?',
      ),
    ).toBe(true);
    expect(notEnglish('把项目文件夹重命名为 cutesticky，再把 session 文件复制进去')).toBe(true);
    expect(notEnglish('no mocks in the tests, use a real database for this and the rest')).toBe(false);
    expect(notEnglish('ok go')).toBe(false);
  });
});
