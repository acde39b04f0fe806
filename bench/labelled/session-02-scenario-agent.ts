/**
 * Annotations for `gold/02-scenario-agent.md` (a design discussion, a from-scratch TypeScript scenario-
 * testing agent, three container-build attempts that all failed). Written from the gold items and the
 * transcript.
 */
import type { SessionAnnotation } from './types.ts';

const NOT = /\bnot\b/;

const commit = (hash: string) => ({ core: [[[hash]]], full: [[[hash]]] });
const command = (...words: string[]) => ({ core: [[words]], full: [[words]] });

export const SESSION_02: SessionAnnotation = {
  goldFile: '02-scenario-agent.md',
  label: '02 scenario agent',
  sessionId: '9a9eadc8-c1f1-493e-a0f1-884aa996b05b',
  items: [
    {
      id: 'A2-1',
      parts: [
        {
          core: [[['scenario testing', 'scenario-testing']]],
          full: [
            [
              ['scenario-testing-agent', 'scenario testing agent', 'autonomous scenario testing'],
              ['kaner', 'scenario-testing-report', 'scenariointrover4', 'research'],
            ],
          ],
        },
        commit('6f035fd'),
        commit('76000c9'),
        commit('6d56117'),
        commit('0bc41d9'),
        commit('bb3e424'),
      ],
      ask: ['what is this project and what has been committed so far?'],
    },
    {
      id: 'A2-2',
      parts: [
        {
          core: [[['exit handler never called']], [['run.sh'], ['fail']]],
          full: [
            [
              ['exit handler never called', 'exit handler'],
              [
                'untested',
                'not tested',
                'still fail',
                'unverified',
                'not verified',
                'not yet',
                'remains',
                'pending',
                'open',
              ],
            ],
          ],
        },
        {
          core: [[['dist'], ['locally'], ['copy']]],
          full: [[['build'], ['dist'], ['locally'], ['copy']]],
        },
        {
          core: [
            [
              ['todomvc', 'mvp', 'agent'],
              ['never run', 'never ran', 'not run', 'never been run', 'unverified', 'untested'],
            ],
          ],
          full: [
            [
              ['todomvc', 'mvp', 'agent'],
              ['never run', 'never ran', 'not run', 'never been run', 'unverified', 'untested'],
            ],
          ],
        },
      ],
      ask: [
        'does ./run.sh build the container now or is npm install still crashing?',
        'has the agent actually been run against TodoMVC yet?',
      ],
    },
    {
      id: 'A2-3',
      parts: [
        {
          core: [[['screenshot'], ['judg', 'look right', 'confus', 'misalign']]],
          full: [[['oracle', 'judg'], ['screenshot'], ['confus', 'misalign', 'look right', 'looks wrong']]],
        },
        {
          core: [[['hardcoded visual', 'hard-coded visual', 'no hardcoded', 'crash detection']]],
          full: [
            [
              ['hardcoded', 'hard-coded'],
              ['crash', 'table stakes', 'boring'],
            ],
          ],
        },
        {
          core: [[['scenario generation'], ['separa', 'decoupl']]],
          full: [[['scenario generation'], ['separa', 'decoupl']]],
        },
        { core: [[[/\bcli\b/], ['web']]], full: [[[/\bcli\b/], ['web'], ['desktop']]] },
        { core: [[['loop'], ['fix']]], full: [[['loop'], ['fix'], ['test']]] },
      ],
      ask: [
        'how is the agent supposed to decide that a UI is broken, do we write visual assertions?',
        'which kinds of apps are we targeting first?',
      ],
    },
    {
      id: 'A2-4',
      parts: [
        {
          core: [[['oracle'], ['same agent', 'single agent', 'one agent', 'unified', 'integrated into']]],
          full: [
            [
              ['oracle'],
              ['same agent', 'single agent', 'one agent', 'unified agent', 'integrated into'],
              ['feedback', 'context', 'loop'],
            ],
          ],
        },
      ],
      ask: ['should the oracle be a separate agent from the one driving the browser?'],
    },
    {
      id: 'A2-5',
      parts: [
        {
          core: [[['happy-path', 'happy path']]],
          full: [[['mvp'], ['happy-path', 'happy path'], ['autonom']]],
        },
        {
          core: [[['todomvc'], ['calculator', 'pre-existing', 'preexisting', 'existing app', 'simple app']]],
          full: [[['todomvc'], ['calculator', 'pre-existing', 'preexisting', 'existing app', 'simple app']]],
        },
      ],
      ask: ['what is the MVP supposed to prove, and against which app?'],
    },
    {
      id: 'A2-6',
      parts: [
        {
          core: [
            [
              ['computer use', 'computer-use'],
              ['click', 'coordinate', 'drag', 'screenshot'],
            ],
          ],
          full: [
            [
              ['computer use', 'computer-use', 'coordinate'],
              ['playwright', 'browser-specific', 'selector', 'low-level'],
              [
                'not playwright',
                'instead of playwright',
                'rather than',
                'than low-level',
                'not low-level',
                'not browser-specific',
                'not pre-scripted',
                'drives the browser',
                'driving the browser',
              ],
            ],
          ],
        },
      ],
      ask: ['should the agent get Playwright selector tools or something else?'],
    },
    {
      id: 'A2-7',
      parts: [
        {
          core: [
            [['container-first', 'container first', 'in-container']],
            [['container'], ['isolat', 'parallel']],
          ],
          full: [[['container'], ['isolat', 'parallel', 'human', 'both driv', 'interfer']]],
        },
      ],
      ask: ["why do we run the agent's computer use inside a container instead of on my machine?"],
    },
    {
      id: 'A2-8',
      parts: [
        {
          core: [
            [
              [
                'model-agnostic',
                'model agnostic',
                'anthropic and openai',
                'openai and anthropic',
                'anthropic + openai',
                'openai + anthropic',
              ],
            ],
          ],
          full: [
            [
              [
                'model-agnostic',
                'model agnostic',
                'anthropic and openai',
                'openai and anthropic',
                'anthropic + openai',
                'openai + anthropic',
              ],
              ['cost', 'typescript', 'rust'],
            ],
          ],
        },
        {
          core: [[['agenite', 'voltagent', 'ancient']]],
          full: [
            [
              ['agenite', 'voltagent'],
              ['ancient', 'rejected', 'too old', 'outdated'],
            ],
          ],
        },
      ],
      ask: [
        'which model providers and languages does the user want, and which agent frameworks were ruled out?',
      ],
    },
    {
      id: 'A2-9',
      parts: [
        {
          core: [[['langgraph']], [['computer-use/browser.ts']]],
          full: [
            [
              ['langgraph'],
              ['playwright'],
              ['computer-use', 'computer use', 'coordinate', 'click(x'],
              ['model-agnostic', 'model agnostic', 'compromise', 'underneath', 'under the hood', 'on top'],
            ],
          ],
        },
      ],
      ask: ['what agent framework and browser layer did we pick, and why?'],
    },
    {
      id: 'A2-10',
      parts: [
        {
          core: [[['apple container']], [['containerfile']]],
          full: [
            [['apple container', "apple's container"], ['docker'], ['containerfile', 'instead', 'replace']],
          ],
        },
        { core: [[['v1.56.0-arm64', '1.56.0']]], full: [[['playwright'], ['v1.56.0-arm64', '1.56.0']]] },
        {
          core: [[['run.sh']]],
          full: [[['run.sh'], ['container build', 'container run', 'host.containers.internal']]],
        },
      ],
      ask: [
        'do we use docker compose to run the agent container?',
        'which base image does the Containerfile use?',
      ],
    },
    {
      id: 'A2-11',
      parts: [
        {
          core: [[['ts2769', 'runnablefunc', 'no overload matches']], [['dynamicstructuredtool']]],
          full: [
            [
              ['dynamicstructuredtool'],
              ['zod'],
              [
                'tool(',
                'ts2769',
                'runnablefunc',
                'no overload',
                'type-check',
                'type error',
                'json schema',
                'json-schema',
              ],
            ],
          ],
        },
      ],
      ask: ["langchain's tool() helper won't typecheck with my schema, what worked last time?"],
    },
    {
      id: 'A2-12',
      parts: [
        { core: [[['vanilla']], [['todomvc'], ['react']]], full: [[['vanilla'], ['react']]] },
        {
          core: [[['http.server']], [['docker/todomvc']]],
          full: [[['docker/todomvc'], ['http.server', 'todomvc/dist', 'cd docker/todomvc']]],
        },
      ],
      ask: ['how is the TodoMVC test app built and served?'],
    },
    {
      id: 'A2-13',
      parts: [
        {
          core: [[['832 files', 'todomvc-master', '.private-journal', 'git add -a']]],
          full: [
            [
              ['76000c9', 'git add -a', '832'],
              ['todomvc-master', '.private-journal', 'settings.local.json'],
            ],
          ],
        },
        {
          core: [[['dockerignore', '280 mb', '280mb', '280.6']]],
          full: [[['dockerignore'], ['280', 'build context', 'context']]],
        },
      ],
      ask: ['why is the container build context so big, and did something get committed by accident?'],
    },
    {
      id: 'A2-14',
      parts: [
        command('npm run build'),
        command('npm run dev', 'tsx watch'),
        command('npm start', 'node dist/index.js'),
        command('test-local.sh'),
        command('run.sh'),
      ],
      ask: [
        'how do I run the agent locally without the container?',
        'what are the build and start commands?',
      ],
    },
    {
      id: 'A2-15',
      parts: [
        {
          core: [[['model_name']]],
          full: [[['model_name'], ['gpt-5', 'claude-3-5-sonnet', 'gpt-4o', 'default']]],
        },
        {
          core: [[['anthropic_api_key', 'openai_api_key']]],
          full: [[['anthropic_api_key'], ['openai_api_key']]],
        },
        { core: [[['target_url']]], full: [[['target_url'], ['8080']]] },
      ],
      ask: ['how do I switch the agent to GPT-5?', 'which environment variables does the agent read?'],
    },
  ],
  mustNever: [
    {
      id: 'M2-npm-install-fixes',
      what: 'npm install (0bc41d9) or npm@latest (bb3e424) stated as the fix for "Exit handler never called": the first failed the same way, the second was never tested',
      all: [
        ['npm'],
        [
          'should work now',
          'more reliable in containers',
          'this should fix it',
          'fixes the bug',
          'fixed the bug',
        ],
      ],
      unless: ['still fail', 'also fail', 'failed again', 'untested', 'not tested'],
    },
    {
      id: 'M2-mvp-ready',
      what: '"complete MVP" / "fully ready to go": the agent never ran and the container build failed',
      all: [['complete mvp', 'fully ready to go', 'built the complete mvp']],
    },
    {
      id: 'M2-vanilla-es6',
      what: 'the vanilla-es6 TodoMVC example as what is used: master has none; the React example was copied',
      all: [['vanilla-es6', 'vanilla es6']],
      unless: ['no vanilla', NOT, 'react', "doesn't", 'does not', 'missing'],
    },
    {
      id: 'M2-curl-failing',
      what: 'the TodoMVC download shown as failing / to fix: curl succeeded (the copy of a missing example failed, then React was used)',
      all: [
        ['curl', 'todomvc.zip'],
        ['fail', 'fix `curl', 'fix curl'],
      ],
    },
    {
      id: 'M2-git-log-failing',
      what: '`git log` on a repository without commits shown as a failure / to fix: it was a check before the first commit',
      all: [
        ['does not have any commits yet', 'no commits yet'],
        ['fail', 'fix `git log', 'fix git log'],
      ],
    },
    {
      id: 'M2-skills-search-failing',
      what: 'a skills-search helper shown as an open failure of the project',
      all: [['skills-search'], ['fail', 'fix `', 'error']],
    },
    {
      id: 'M2-docker-compose',
      what: 'docker-compose / the Dockerfile with VNC shown as current: replaced by docker/Containerfile for Apple container, compose removed',
      all: [
        ['docker-compose', 'docker compose', 'docker/dockerfile'],
        ['use docker', 'uses docker', 'compose up', 'run with docker', 'with docker-compose'],
      ],
      unless: ['removed', 'deleted', 'replaced', 'instead', 'rename'],
    },
    {
      id: 'M2-framework-chosen',
      what: 'Agenite or VoltAgent as the chosen framework: the user rejected them as "ancient"',
      all: [
        ['agenite', 'voltagent'],
        ['use', 'chose', 'decision', 'recommend', 'look solid'],
      ],
      unless: ['ancient', 'reject', NOT],
    },
    {
      id: 'M2-separate-oracle',
      what: 'the oracle as a separate agent: the user and assistant agreed it is the same agent that executes',
      all: [['oracle'], ['separate agent', 'separate component', 'oracle agent']],
      unless: ['same agent', 'not a separate', "isn't a separate", 'integrated', 'one agent', 'single agent'],
    },
    {
      id: 'M2-gpt5-missing',
      what: '"GPT-5 does not exist yet": the user said it is available',
      all: [
        ['gpt-5', 'gpt5'],
        ["doesn't exist", 'does not exist', 'when it releases', 'when available', 'not released'],
      ],
    },
  ],
};
