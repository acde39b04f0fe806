/**
 * Graph: a memory's or a file's neighbourhood (capped), drawn as an inline SVG star (server-side: no
 * graph library, no script; only this page carries it). Every node is a link to its own
 * neighbourhood, and the same neighbours are listed as text below.
 */
import { html } from 'hono/html';
import type { RouteDeps } from '../deps.ts';
import {
  fileNeighbourhood,
  memoryNeighbourhood,
  type GraphNode,
  type Neighbourhood,
} from '../neighbourhood.ts';
import type { Html } from './layout.ts';
import { badge, empty, href, memoryHref, sessionHref } from './parts.ts';

const W = 760;
const H = 520;
const R = 200;

function nodeHref(n: GraphNode): string {
  const [kind, ...rest] = n.key.split(':');
  const value = rest.join(':');
  if (kind === 'memory') return href('/graph', { id: value });
  if (kind === 'file') return href('/graph', { file: value });
  return sessionHref(value);
}

const short = (text: string, max = 34) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function drawing(n: Neighbourhood): Html {
  const cx = W / 2;
  const cy = H / 2;
  const at = new Map<string, { x: number; y: number }>([[n.center.key, { x: cx, y: cy }]]);
  n.nodes.forEach((node, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n.nodes.length) - Math.PI / 2;
    at.set(node.key, { x: cx + R * Math.cos(angle), y: cy + R * 0.9 * Math.sin(angle) });
  });
  const dot = (node: GraphNode, center: boolean) => {
    const p = at.get(node.key) ?? { x: cx, y: cy };
    return html`<a href="${nodeHref(node)}" aria-label="${node.kind} ${node.label}">
      <circle
        class="node ${node.kind}${center ? ' center' : ''}"
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

function listing(n: Neighbourhood): Html {
  const kindOf = new Map(n.edges.map((e) => [e.from === n.center.key ? e.to : e.from, e.kind]));
  return html`<ul class="plain neighbours">
      ${n.nodes.map((node) => {
        const id = node.key.slice(node.key.indexOf(':') + 1);
        return html`<li>
          ${kindOf.get(node.key) ?? ''} ·
          ${node.kind === 'memory' ? html`<a href="${memoryHref(id)}">${node.label}</a> ${badge('type', node.type ?? '')}` : html`<a href="${nodeHref(node)}">${node.label}</a> (${node.kind})`}
        </li>`;
      })}
    </ul>
    ${n.more > 0 ? html`<p class="meta">${n.more} more not shown.</p>` : ''}`;
}

export function graphPage(deps: RouteDeps, q: Record<string, string>): Html {
  const id = q['id']?.trim();
  const file = q['file']?.trim();
  const n = id ? memoryNeighbourhood(deps.store, id) : file ? fileNeighbourhood(deps.store, file) : null;
  return html`<h1>Graph</h1>
    <form class="inline" action="/graph" method="get">
      <label class="field"
        ><span>Memory id</span><input name="id" value="${id ?? ''}" placeholder="obs_…"
      /></label>
      <label class="field"
        ><span>or file path</span><input name="file" value="${file ?? ''}" placeholder="src/…"
      /></label>
      <button type="submit" class="secondary">Show</button>
    </form>
    ${!id && !file ? empty('Pick a memory (its page links here) or a file to see what is around it.') : ''}
    ${(id || file) && !n ? empty('Nothing found around that.') : ''}
    ${
      n
        ? html`<h2>
              ${n.center.kind === 'memory' ? html`<a href="${memoryHref(n.center.key.slice(7))}">${n.center.label}</a>` : n.center.label}
            </h2>
            ${drawing(n)}
            <ul class="legend" aria-label="Legend">
              <li><span class="swatch s0" aria-hidden="true"></span>memory</li>
              <li><span class="swatch s1" aria-hidden="true"></span>file</li>
              <li><span class="swatch s2" aria-hidden="true"></span>session</li>
            </ul>
            ${listing(n)}`
        : ''
    }`;
}
