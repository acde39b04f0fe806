/**
 * The labelled real sessions the `labelled` set of `bench:quality` scores, with their annotations (one
 * file per session; the gold lists themselves are read from the dataset).
 */
import { SESSION_01 } from './session-01-streaming.ts';
import { SESSION_02 } from './session-02-scenario-agent.ts';
import { SESSION_05 } from './session-05-local-dev-hooks.ts';
import { SESSION_06 } from './session-06-global-gitignore.ts';
import { SESSION_13 } from './session-13-subagents-toy.ts';
import type { SessionAnnotation } from './types.ts';

export const LABELLED: readonly SessionAnnotation[] = [
  SESSION_01,
  SESSION_02,
  SESSION_05,
  SESSION_06,
  SESSION_13,
];
