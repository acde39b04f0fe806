/**
 * The graph step: after the worker distils (or a backfill, or any surface, changes memory), it tails
 * the change log from its own cursor and grows the graph — file nodes (with summaries for large
 * files), `touches` edges, `part_of` edges to the session (and the task in progress), `links_to` edges
 * for wiki-links written in a memory's text, anchors for memories about files, a session's edited files
 * when it ends — then re-checks the anchors of the files that changed and ranks the key files. Every
 * edge goes through the mutation path with the origin of the change that caused it.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ProjectId } from '../core/ids.ts';
import type { Change, ChangeOrigin, Observation, Project } from '../core/model.ts';
import { scrubText } from '../core/scrub.ts';
import type { EdgeSet } from '../store/changes-repo.ts';
import type { StepMemory } from '../store/graph-repo.ts';
import type { Store } from '../store/store.ts';
import { createAnchor } from './anchor.ts';
import { editedLines, editTextsFor, mentionedIdentifiers, symbolHint } from './anchor-hints.ts';
import { followAccountOfFiles } from './file-account.ts';
import { summariseFile } from './file-summary.ts';
import { knownFiles, type KnownFiles } from './known-files.ts';
import { fileNodeId, sessionNodeId } from './node-ids.ts';
import { markRankDue, rankDueProjects } from './rank-due.ts';
import { readIfPresent } from './read-if-present.ts';
import { refreshAnchors, type StalenessReport } from './staleness.ts';
import { hasTaskInProgress } from './task-status.ts';
import { parseWikiLinks } from './wiki-links.ts';

export const GRAPH_CURSOR = 'graph_cursor';
/** Memories made before the change log existed are walked once, by rowid, up to this one (-1: done). */
export const GRAPH_SEED = 'graph_seed_rowid';

/** A change-log row, or a memory older than the log being seeded (not a row: `seed` is no logged op). */
type StepChange = Change | (Omit<Change, 'entity' | 'op'> & { entity: 'memory'; op: 'seed' });

export interface GraphStepOptions {
  now: number;
  /** Files with at least this many lines get a summary (purpose, symbols). */
  fileSummaryMinLines: number;
  /**
   * Anchor only memories made this recently: an older one (a backfill) describes the code as it was
   * then, which the file on disk no longer tells.
   */
  anchorMaxAgeMs: number;
  /** Most changes read in one step. */
  batch?: number;
  /**
   * Rank the key files of projects whose turn it is (default). A one-shot catch-up ranks once at its
   * end instead (`rankDueProjects(…, force)`), not after its first step too.
   */
  rank?: boolean;
}

export interface GraphStepReport {
  changes: number;
  edges: number;
  files: number;
  anchors: number;
  stale: StalenessReport['becameStale'];
  projects: number;
}

const MEMORY_OPS: ReadonlySet<string> = new Set(['create', 'merge', 'edit', 'forget', 'restore', 'seed']);
const LOGGED_MEMORY_OPS = [...MEMORY_OPS].filter((op) => op !== 'seed');
/** The logged changes the step acts on; the rest (links, its own edges among them) it passes over in SQL. */
const STEP_KINDS = [...LOGGED_MEMORY_OPS.map((op) => `memory ${op}`), 'summary final'];
const HUMAN_ORIGINS: ReadonlySet<ChangeOrigin> = new Set(['cli', 'mcp', 'viewer', 'vault']);

function turnSpan(o: Pick<Observation, 'provenance'>): { from: number; to: number } | null {
  for (const p of o.provenance) {
    const m = /^turn:(\d+)-(\d+)$/.exec(p);
    if (m) return { from: Number(m[1]), to: Number(m[2]) };
  }
  return null;
}

interface Context {
  store: Store;
  options: GraphStepOptions;
  report: GraphStepReport;
  /** Anchors made in this step (not re-checked at once). */
  fresh: Set<number>;
  /** Paths per project whose anchors to re-check. */
  touchedPaths: Map<string, Set<string>>;
  ranksDue: Set<string>;
  /** Files read in this step, per project (many memories touch the same files). */
  files: Map<string, Map<string, ReturnType<typeof fileFacts>>>;
  /** What the step reads of each memory it acts on, read together before it acts. */
  memories: Map<string, StepMemory>;
  /** The file nodes there are and which are marked deleted, as the step's writes leave them. */
  known: KnownFiles;
  /**
   * The step's writes in order, committed together at its end: files are read outside the
   * transaction, and what a change reads before its writes (memories, tasks, tool calls) is nothing
   * the step itself writes.
   */
  writes: (() => void)[];
  /** File nodes saved in this step: saving the same facts again changes nothing. */
  savedFiles: Set<string>;
  /** Projects read in this step. */
  projects: Map<string, Project | null>;
  /** Whether each project's root is on this machine (looked at once per step). */
  roots: Map<string, boolean>;
  /** Sessions' active tasks read in this step (newest first). */
  tasks: Map<string, Observation[]>;
  /** Memories' file names as project paths, worked out once per step (many memories name the same). */
  paths: Map<string, Map<string, string | null>>;
}

/** What `map` holds for `key`, made and kept the first time it is asked for (once per step). */
function once<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  if (map.has(key)) return map.get(key) as V;
  const value = make();
  map.set(key, value);
  return value;
}

/** A memory's file path relative to the project root (with /), or null when it lies outside. */
function projectPath(c: Context, root: string, file: string): string | null {
  const paths = once(c.paths, root, () => new Map<string, string | null>());
  return once(paths, file, () => {
    const rel = isAbsolute(file) ? relative(root, file) : file;
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
    return rel.split(sep).join('/').replace(/^\.\//, '');
  });
}

/** The newest active task of a session made at or before `at`, other than `exceptId`. */
function lastTaskOf(c: Context, sessionId: string, at: number, exceptId: string): Observation | null {
  const tasks = once(c.tasks, sessionId, () => c.store.graph.activeTasksOf(sessionId));
  return tasks.find((t) => t.createdAt <= at && t.id !== exceptId) ?? null;
}

function projectOf(c: Context, id: ProjectId): Project | null {
  return once(c.projects, id, () => c.store.sessions.project(id));
}

type Facts = ReturnType<typeof fileFacts>;

/** Save a file node once per step (the first save of its facts; later ones would change nothing). */
function saveFile(c: Context, f: Facts, projectId: string): boolean {
  if (c.savedFiles.has(f.id)) return false;
  c.savedFiles.add(f.id);
  if (f.facts) {
    c.known.set(projectId, f.id, false);
    return c.store.graphFiles.save(f.facts, c.options.now);
  }
  // A missing file's node there already changes only when it becomes deleted.
  const deleted = c.known.deleted(projectId, f.id);
  if (deleted === true || (deleted === false && !f.gone)) return false;
  c.store.graphFiles.saveMissing(f.id, projectId, f.path, c.options.now, f.gone);
  c.known.set(projectId, f.id, f.gone);
  return false;
}

/** Add a node's derived edges: one change-log row for those that were new. */
function linkAll(c: Context, from: string, edges: EdgeSet, projectId: string, origin: ChangeOrigin) {
  if (edges.length > 0)
    c.report.edges += c.store.memory.linkAll(from, edges, projectId, { origin, at: c.options.now });
}

/** A file node for a project path: read and summarised now (outside any transaction). */
function fileFacts(project: Project, path: string, minLines: number) {
  const content = readIfPresent(join(project.root, path));
  const id = fileNodeId(project.id, path);
  // A project not on this machine (a backfill of another's transcripts) says nothing of its files.
  if (!content) return { id, path, content: null, facts: null, gone: existsSync(project.root) };
  const s = summariseFile(path, content);
  const summarized = s.lines >= minLines;
  return {
    id,
    path,
    content,
    gone: false,
    facts: {
      id,
      projectId: project.id,
      path,
      language: s.language,
      lines: s.lines,
      size: s.size,
      blobHash: createAnchor({ path, content }).blobHash,
      summarized,
      // Read off the file itself: scrubbed like everything engram stores.
      purpose: summarized ? scrubText(s.purpose) : '',
      symbols: summarized ? s.symbols.map(scrubText) : [],
    },
  };
}

/** Whether a project's root is on this machine (looked at once per step). */
function rooted(c: Context, project: Project): boolean {
  return once(c.roots, project.id, () => existsSync(project.root));
}

function cachedFacts(c: Context, project: Project, path: string): Facts {
  // A project whose root is not here has none of its files here either: not a failed read per file.
  const files = once(c.files, project.id, () => new Map<string, Facts>());
  return once(files, path, () =>
    rooted(c, project)
      ? fileFacts(project, path, c.options.fileSummaryMinLines)
      : { id: fileNodeId(project.id, path), path, content: null, facts: null, gone: false },
  );
}

/** Wiki-links in a memory's text that name another memory of the project exactly (id or title). */
function wikiTargets(store: Store, o: Observation): string[] {
  const text = [o.title, o.subtitle, o.narrative, ...o.facts].join('\n');
  if (!text.includes('[[')) return [];
  const links = parseWikiLinks(text);
  const out = new Set<string>();
  for (const l of links) {
    const target = l.target.trim();
    if (/^obs_[0-9a-z]{20}$/.test(target)) {
      if (store.observations.get(target)) out.add(target);
    } else {
      const id = store.graph.memoryTitled(o.projectId, target);
      if (id) out.add(id);
    }
  }
  out.delete(o.id);
  return [...out];
}

/** Grow the graph around one memory that was made, merged or edited. */
function memoryChanged(c: Context, change: StepChange): void {
  const { store, options } = c;
  // What edges need of the memory; its texts are read only for a wiki-link or an anchor.
  const o = c.memories.get(change.entityId);
  if (!o) return;
  if (o.status === 'forgotten') {
    c.writes.push(() => store.anchors.dropMemory(o.id));
    return;
  }
  const project = projectOf(c, o.projectId);
  if (!project) return;
  const inProject = (files: readonly string[]) =>
    files.map((f) => projectPath(c, project.root, f)).filter((f): f is string => f !== null);
  const files = inProject([...new Set([...o.filesModified, ...o.filesRead])]);
  const read = files.map((path) => cachedFacts(c, project, path));
  const reanchor = change.op === 'edit' && HUMAN_ORIGINS.has(change.origin);
  const anchorable = change.op === 'create' || reanchor;
  const young = options.now - o.createdAt <= options.anchorMaxAgeMs;
  // What anchors are made from (the turn's tool calls, the identifiers the memory names) is read only
  // for a memory that gets anchors.
  const anchoring = anchorable && (young || reanchor) && read.some((f) => f.content !== null);
  const span = anchoring ? turnSpan(o) : null;
  const calls = span && o.sessionId ? store.graph.turnToolCalls(o.sessionId, span.from, span.to) : [];
  const full = anchoring || o.mayLink ? store.observations.get(o.id) : null;
  const identifiers =
    full && anchoring ? mentionedIdentifiers([full.title, full.subtitle, full.narrative, ...full.facts]) : [];
  const targets = full && o.mayLink ? wikiTargets(store, full) : [];
  const task = o.sessionId && o.type !== 'task' ? lastTaskOf(c, o.sessionId, o.createdAt, o.id) : null;
  const origin = change.origin;
  // A path the memory modified, as it names it or as a project path (each looked at once, not per file).
  const modified = new Set([...o.filesModified, ...inProject(o.filesModified)]);
  const modifies = (path: string) => modified.has(path);
  c.writes.push(() => {
    // A human edit vouches for the memory as it is now: it is anchored afresh (and fresh again).
    const wasStale = reanchor && store.anchors.isStale(o.id);
    if (reanchor) store.anchors.dropMemory(o.id);
    const edges: [string, string][] = read.map((f) => ['touches', f.id]);
    if (o.sessionId) edges.push(['part_of', sessionNodeId(o.sessionId)]);
    if (task && hasTaskInProgress(task)) edges.push(['part_of', task.id]);
    for (const t of targets) edges.push(['links_to', t]);
    for (const f of read) if (saveFile(c, f, project.id)) c.report.files++;
    linkAll(c, o.id, edges, project.id, origin);
    if (read.length > 0) c.ranksDue.add(project.id);
    for (const f of read) {
      if (!f.content || !anchorable || !(young || reanchor)) continue;
      const text = f.content.toString('utf8');
      const edits = modifies(f.path)
        ? editTextsFor(calls, (file) => projectPath(c, project.root, file) === f.path)
        : [];
      const anchor = createAnchor(
        { path: f.path, content: f.content },
        { symbol: symbolHint(text, identifiers), lines: editedLines(text, edits) },
      );
      const mtime = statSync(join(project.root, f.path), { throwIfNoEntry: false })?.mtimeMs ?? null;
      if (store.anchors.add(o.id, project.id, anchor, mtime, options.now)) {
        c.report.anchors++;
        const added = store.anchors.ofMemory(o.id).find((a) => a.firstPath === f.path);
        if (added) c.fresh.add(added.rowid);
      }
    }
    if (!rooted(c, project)) followAccountOfFiles(store, project.id, o, read, modifies, c.known);
    if (wasStale) store.memory.markStale(o.id, false, { origin, at: options.now });
  });
  if (o.filesModified.length > 0) {
    const paths = c.touchedPaths.get(project.id) ?? new Set<string>();
    for (const f of read) paths.add(f.path);
    c.touchedPaths.set(project.id, paths);
  }
}

/** A session ended: its node touches the files it edited. */
function sessionEnded(c: Context, change: Change): void {
  const { store } = c;
  const summary = store.summaries.get(change.entityId);
  if (!summary) return;
  const project = projectOf(c, summary.projectId);
  if (!project) return;
  const node = sessionNodeId(summary.sessionId);
  const files = summary.filesEdited
    .map((f) => projectPath(c, project.root, f))
    .filter((f): f is string => f !== null)
    .map((path) => cachedFacts(c, project, path));
  c.writes.push(() => {
    for (const f of files) saveFile(c, f, project.id);
    linkAll(
      c,
      node,
      files.map((f) => ['touches', f.id] as const),
      project.id,
      change.origin,
    );
  });
  c.ranksDue.add(project.id);
}

/** One step: read the change log from the graph's cursor and grow the graph. */
export function runGraphStep(store: Store, options: GraphStepOptions): GraphStepReport {
  const report: GraphStepReport = { changes: 0, edges: 0, files: 0, anchors: 0, stale: [], projects: 0 };
  const cursor = store.graph.state(GRAPH_CURSOR);
  const seeded = store.graph.state(GRAPH_SEED);
  const batch = options.batch ?? 500;
  // Memories older than the change log (an upgraded store) get their edges once, in batches; they are
  // not anchored (the code they describe may have changed since). One the log still holds a change of
  // for this step to read is met there instead, not walked twice.
  const older =
    seeded >= 0
      ? store.graph
          .memoryIdsAfterUnlogged(seeded, batch, { after: cursor, ops: LOGGED_MEMORY_OPS })
          .map((m): StepChange & { rowid: number } => ({
            rowid: m.rowid,
            seq: 0,
            entity: 'memory',
            entityId: m.id,
            projectId: null,
            op: 'seed',
            origin: 'hook',
            actor: null,
            at: options.now,
            version: null,
          }))
      : [];
  const seedDone = seeded >= 0 && older.length < batch;
  // The log is read up to its end as it is now; a full batch ends the read at its last change.
  const end = store.changes.lastSeq();
  const logged = older.length < batch ? store.changes.sinceOfKinds(cursor, end, STEP_KINDS, batch) : [];
  const readTo =
    older.length >= batch ? cursor : logged.length >= batch ? (logged.at(-1) as Change).seq : end;
  const changes = [...older, ...logged];
  if (changes.length === 0) {
    store.transaction(() => {
      if (seedDone) store.graph.setState(GRAPH_SEED, -1);
      if (readTo > cursor) store.graph.setState(GRAPH_CURSOR, readTo);
    });
    if (options.rank !== false) rankDueProjects(store, options.now);
    return report;
  }
  const c: Context = {
    store,
    options,
    report,
    fresh: new Set(),
    touchedPaths: new Map(),
    ranksDue: new Set(),
    files: new Map(),
    memories: store.graph.stepMemories(
      changes.filter((ch) => ch.entity === 'memory' && MEMORY_OPS.has(ch.op)).map((ch) => ch.entityId),
    ),
    known: knownFiles(store),
    writes: [],
    savedFiles: new Set(),
    projects: new Map(),
    roots: new Map(),
    tasks: new Map(),
    paths: new Map(),
  };
  for (const change of changes) {
    report.changes++;
    if (change.entity === 'memory' && MEMORY_OPS.has(change.op)) memoryChanged(c, change);
    else if (change.entity === 'summary' && change.op === 'final') sessionEnded(c, change);
  }
  // One commit for the step's edges, file nodes and anchors, not one per memory.
  if (c.writes.length > 0)
    store.transaction(() => {
      for (const write of c.writes) write();
    });
  for (const [projectId, paths] of c.touchedPaths) {
    const project = store.sessions.project(projectId as ProjectId);
    if (!project) continue;
    const r = refreshAnchors(store, project, {
      now: options.now,
      origin: 'hook',
      full: true,
      paths,
      skipRowids: c.fresh,
    });
    report.stale.push(...r.becameStale);
  }
  // Key files are ranked again when due (a debounce: a burst of memories costs one ranking).
  markRankDue(store, c.ranksDue);
  if (options.rank !== false) rankDueProjects(store, options.now);
  report.projects = new Set([...c.ranksDue, ...c.touchedPaths.keys()]).size;
  const lastSeed = older[older.length - 1];
  store.transaction(() => {
    if (seedDone) store.graph.setState(GRAPH_SEED, -1);
    else if (lastSeed) store.graph.setState(GRAPH_SEED, lastSeed.rowid);
    if (readTo > cursor) store.graph.setState(GRAPH_CURSOR, readTo);
  });
  return report;
}
