/**
 * The page shell: navigation, the live indicator, the stylesheet and the one script (both from the
 * viewer's own origin, the script with this response's CSP nonce). Every interpolated value is escaped
 * by hono/html; memory text is never markup. The team server's web view uses the same shell with its
 * own menu, no live stream, and the signed-in member with a sign-out button (`Shell`).
 */
import { html } from 'hono/html';
import type { ViewerAssets } from '../deps.ts';

export type Html = ReturnType<typeof html>;

export const NAV = [
  { key: 'stream', href: '/', label: 'Stream' },
  { key: 'search', href: '/search', label: 'Search' },
  { key: 'sessions', href: '/sessions', label: 'Sessions' },
  { key: 'graph', href: '/graph', label: 'Graph' },
  { key: 'review', href: '/review', label: 'Review' },
  { key: 'metrics', href: '/metrics', label: 'Metrics' },
  { key: 'health', href: '/health', label: 'Health' },
  { key: 'settings', href: '/settings', label: 'Settings' },
] as const;

export type NavKey = string;

export interface NavEntry {
  key: string;
  href: string;
  label: string;
}

/** What differs between the local viewer and the team web view around the same pages. */
export interface Shell {
  nav: readonly NavEntry[];
  /** The live-stream indicator (the local viewer's change feed; the team view has none). */
  live: boolean;
  /** Shown at the end of the header (the team view's member and sign-out form). */
  account?: Html;
  /** The page's referrer policy (the team view's forms need `same-origin`: see strictHeaders). */
  referrer?: 'no-referrer' | 'same-origin';
}

const LOCAL_SHELL: Shell = { nav: NAV, live: true };

export interface PageOptions {
  title: string;
  /** The menu entry to mark as current (none for an error page). */
  nav: NavKey | null;
  body: Html;
  /** Extra attributes for the client script (`data-page` picks its behaviour). */
  page?: string;
}

export function layout(
  nonce: string,
  assets: ViewerAssets,
  options: PageOptions,
  shell: Shell = LOCAL_SHELL,
): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="${shell.referrer ?? 'no-referrer'}" />
        <link rel="icon" href="data:," />
        <title>${options.title} · engram</title>
        <link rel="stylesheet" href="/assets/viewer.css?v=${assets.version}" />
        <script nonce="${nonce}" src="/assets/viewer.js?v=${assets.version}" defer></script>
      </head>
      <body data-page="${options.page ?? options.nav}">
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/">engram</a>
          <nav aria-label="Main">
            <ul>
              ${shell.nav.map(
                (n) =>
                  html`<li>
                    <a href="${n.href}" ${n.key === options.nav ? html` aria-current="page"` : ''}
                      >${n.label}</a
                    >
                  </li>`,
              )}
            </ul>
          </nav>
          ${
            shell.live
              ? html`<p class="live" id="live" role="status" aria-live="polite">
                  <span class="dot" aria-hidden="true"></span><span id="live-text">connecting…</span>
                </p>`
              : ''
          }
          ${shell.account ?? ''}
        </header>
        <main id="main">${options.body}</main>
        <div id="toasts" class="toasts" role="status" aria-live="polite"></div>
      </body>
    </html>`;
}
