/**
 * One memory as the memory page and GET /api/memories/:id show it: the memory view (app/memory-view.ts)
 * with the memory in its public JSON shape.
 */
import type { MemoryView } from '../../app/memory-view.ts';
import { memoryJson } from '../memory-json.ts';

export function memoryDetail(view: MemoryView) {
  return { ...view, memory: memoryJson(view.memory) };
}

export type MemoryDetail = ReturnType<typeof memoryDetail>;
