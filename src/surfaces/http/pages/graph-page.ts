/**
 * Graph: a memory's, a file's or a session's neighbourhood in the memory graph (capped), drawn as an
 * inline SVG star (server-side: no graph library, no script; only this page carries it). Every node is
 * a link to its own neighbourhood; the same neighbours are listed as text below with their page links.
 */
import { html } from 'hono/html';
import type { RouteDeps } from '../deps.ts';
import { sessionIdOf, type SessionNodeId } from '../../../graph/node-ids.ts';
import { projectParam } from '../request-input.ts';
import {
  fileNodeOf,
  neighbourhoodOf,
  type GraphNode,
  type Neighbourhood,
} from '../../../app/neighbourhood.ts';
import type { Html } from './layout.ts';
import { badge, empty, href, memoryHref, sessionHref } from './parts.ts';

const W = 760;
const H = 520;
const R = 200;

const nodeHref = (n: GraphNode): string => href('/graph', { id: n.id });

/** A node's own page: the memory's or the session's (a file has only its neighbourhood). */
function pageHref(n: GraphNode): string {
  if (n.kind === 'memory') return memoryHref(n.id);
  if (n.kind === 'session') return sessionHref(sessionIdOf(n.id as SessionNodeId));
  return nodeHref(n);
}

const short = (text: string, max = 34) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function drawing(n: Neighbourhood): Html {
  const cx = W / 2;
  const cy = H / 2;
  const at = new Map<string, { x: number; y: number }>([[n.center.id, { x: cx, y: cy }]]);
  n.nodes.forEach((node, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n.nodes.length) - Math.PI / 2;
    at.set(node.id, { x: cx + R * Math.cos(angle), y: cy + R * 0.9 * Math.sin(angle) });
  });
  const dot = (node: GraphNode, center: boolean) => {
    const p = at.get(node.id) ?? { x: cx, y: cy };
    return html`<a
      href="${nodeHref(node)}"
      aria-label="${node.kind}${node.stale ? ' (stale)' : ''} ${node.label}"
    >
      <circle
        class="node ${node.kind}${center ? ' center' : ''}${node.stale ? ' stale' : ''}"
        cx="${p.x.toFixed(1)}"
        cy="${p.y.toFixed(1)}"
        r="${center ? 14 : 9}"
      ></circle>
      <text
        class="label"
        x="${p.x.toFixed(1)}"
        y="${(p.y + (center ? 30 : 22)).toFixed(1)}"
        text-anchor="middle"
        >${short(node.label)}</text
      >
      <title>${node.kind}: ${node.label}</title></a
    >`;
  };
  return html`<svg
    class="graph"
    viewBox="0 0 ${W} ${H}"
    role="group"
    aria-label="Neighbourhood of ${n.center.label}"
  >
    ${n.edges.map((e) => {
      const a = at.get(e.from);
      const b = at.get(e.to);
      return a && b
        ? html`<line
            class="edge"
            x1="${a.x.toFixed(1)}"
            y1="${a.y.toFixed(1)}"
            x2="${b.x.toFixed(1)}"
            y2="${b.y.toFixed(1)}"
            ><title>${e.kind}</title></line
          >`
        : '';
    })}
    ${n.nodes.map((node) => dot(node, false))} ${dot(n.center, true)}
  </svg>`;
}

/** Which way an edge goes, said from the centre: "touches →" (the centre's link), "← part of" (a backlink). */
function direction(n: Neighbourhood, node: GraphNode): string {
  const e = n.edges.find((x) => x.from === node.id || x.to === node.id);
  if (!e) return '';
  const kind = e.kind.replace(/_/g, ' ');
  return e.from === n.center.id ? `${kind} →` : `← ${kind}`;
}

function listing(n: Neighbourhood): Html {
  return html`<ul class="plain neighbours">
      ${n.nodes.map(
        (node) =>
          html`<li>
            ${direction(n, node)} <a href="${pageHref(node)}">${node.label}</a>
            ${node.kind === 'memory' ? badge('type', node.type ?? '') : html`(${node.kind})`}
            ${node.stale ? badge('status', 'stale') : ''}
            ${node.kind !== 'file' ? html`· <a href="${nodeHref(node)}">its neighbourhood</a>` : ''}
          </li>`,
      )}
    </ul>
    ${n.more > 0 ? html`<p class="meta">${n.more} more not shown.</p>` : ''}`;
}

/** A node's neighbourhood: its name, the drawing, the legend and the list (the team web view's too). */
export function neighbourhoodSection(n: Neighbourhood): Html {
  return html`<h2>
      <a href="${pageHref(n.center)}">${n.center.label}</a> (${n.center.kind})
      ${n.center.stale ? badge('status', 'stale') : ''}
    </h2>
    ${n.nodes.length === 0 ? empty('No links yet.') : drawing(n)}
    <ul class="legend" aria-label="Legend">
      <li><span class="swatch s0" aria-hidden="true"></span>memory</li>
      <li><span class="swatch s1" aria-hidden="true"></span>file</li>
      <li><span class="swatch s2" aria-hidden="true"></span>session</li>
    </ul>
    ${listing(n)}`;
}

export function graphPage(deps: RouteDeps, q: Record<string, string>): Html {
  const file = q['file']?.trim();
  const id = q['id']?.trim() || (file ? fileNodeOf(deps.store, file, projectParam(q['project'])) : null);
  const n = id ? neighbourhoodOf(deps.store, id) : null;
  return html`<h1>Graph</h1>
    <form class="inline" action="/graph" method="get">
      <label class="field"
        ><span>Memory, file or session node id</span
        ><input name="id" value="${q['id'] ?? ''}" placeholder="obs_…, fil_…, ses_…"
      /></label>
      <label class="field"
        ><span>or file path</span><input name="file" value="${file ?? ''}" placeholder="src/…"
      /></label>
      <button type="submit" class="secondary">Show</button>
    </form>
    ${!q['id'] && !file ? empty('Pick a memory (its page links here) or a file to see what is around it.') : ''}
    ${(q['id'] || file) && !n ? empty('Nothing found there: no such node in the memory graph (yet: the worker builds it after distilling).') : ''}
    ${n ? neighbourhoodSection(n) : ''}`;
}
