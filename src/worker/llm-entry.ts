/**
 * The opt-in LLM distillation, bundled apart as `dist/llm.mjs` and loaded only when
 * `distill.provider` is not `none`: the CLI and the worker start without zod or any provider code.
 */
export { createLlmDistillerFromConfig } from './llm-wiring.ts';
export { createLlmTurnPreparer } from './llm-turn.ts';
