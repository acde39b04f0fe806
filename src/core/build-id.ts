/**
 * Which build of engram this code is: a value the build script (scripts/build.mjs) puts into every
 * bundle of one build, so two processes can tell whether they run the same code — the prompt hook
 * takes the worker's answer only from the build it would compute the answer with itself. Unbundled
 * sources (tests) are the build `source`.
 */
declare const __ENGRAM_BUILD__: string | undefined;

export const BUILD_ID: string = typeof __ENGRAM_BUILD__ === 'string' ? __ENGRAM_BUILD__ : 'source';
