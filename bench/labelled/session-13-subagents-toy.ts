/**
 * Annotations for `gold/13-subagents-toy.md` (curry poems by background subagents, lost notifications,
 * a `/publish-session` command; a toy: a good memory keeps very little). Written from the gold items
 * and the transcript.
 */
import type { SessionAnnotation } from './types.ts';

export const SESSION_13: SessionAnnotation = {
  goldFile: '13-subagents-toy.md',
  label: '13 subagents toy',
  sessionId: '0ccf1a04-1b4c-43b6-8aa5-79e41db43a68',
  items: [
    {
      id: 'A13-1',
      parts: [
        {
          core: [[['poem'], ['sushi', 'delivered', 'completed', 'all four', 'ready']]],
          full: [[['sushi'], ['curry'], ['subagent', 'sub-agent', 'background', 'agent']]],
        },
        { core: [[['gist', 'published']]], full: [[['published', 'publish'], ['gist']]] },
      ],
      ask: ['did all the curry poems get written and was the session shared?'],
    },
    {
      id: 'A13-2',
      parts: [
        {
          core: [
            [['notification'], ['never arrived', 'lost', 'missing', 'not delivered', 'never came']],
            [['spawn'], ['again', 'twice', 'respawn', 're-spawn', 'duplicate']],
          ],
          full: [
            [
              ['notification', 'spawn'],
              ['output file', 'check'],
              ['again', 'twice', 'respawn', 'duplicate', 'before spawning'],
            ],
          ],
        },
      ],
      ask: ['a background agent seems to have never reported back, should I start it again?'],
    },
    {
      id: 'A13-3',
      parts: [
        {
          core: [[['publish-session', 'publish_session', 'publish session']]],
          full: [
            [
              ['publish'],
              ['run', 'execute'],
              ['refus', "won't", 'why won', 'wanted it run', 'wants it run', 'should run'],
            ],
          ],
        },
      ],
      ask: ['when the user types /publish-session, should I run the script it shows?'],
    },
    {
      id: 'A13-4',
      parts: [
        {
          core: [[['publish_session.py']]],
          full: [[['python3'], ['publish_session.py'], ['session']]],
        },
      ],
      ask: ['how do I publish a session transcript to a gist?'],
    },
  ],
  mustNever: [
    {
      id: 'M13-only-red',
      what: '"I only spawned the red one": the assistant\'s wrong conclusion; all three agents had been spawned and finished',
      all: [['only spawned the red', 'only the red one', 'need to spawn the green', 'never spawned']],
    },
    {
      id: 'M13-refuse-publish',
      what: 'refusing to run /publish-session as a rule: the user asked why, and it was run',
      all: [['publish'], ["won't execute", "won't run", 'will not run', 'not execute that', 'refuse']],
      unless: ['why won', 'wanted it run', 'ran it', 'run it for you', 'user asked', 'then ran', 'was run'],
    },
    {
      id: 'M13-still-waiting',
      what: 'the poems still being awaited: all four were delivered',
      all: [['still waiting', 'waiting on the', 'still being written']],
    },
  ],
};
