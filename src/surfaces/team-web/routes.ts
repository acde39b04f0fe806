/**
 * The team web view, mounted on the team server's app (`engram server start`): sign-in and sign-out,
 * then the projects, search, memory, sessions, graph and audit-log pages. Every page runs as its
 * session's tenant — one transaction as `engram_app` with the same settings the API's bearer tokens
 * set (team/tenant.ts `asTenant`, `web: true`) — so row-level security decides every row it shows,
 * and each page view is appended to the audit log in that transaction. Pages only read.
 */
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import { secureHeaders, type SecureHeadersVariables } from 'hono/secure-headers';
import { EngramError, isEngramError } from '../../core/errors.ts';
import { appendAudit, listAudit, SERVER_CHAIN } from '../../team/audit-log.ts';
import type { Tx } from '../../team/database.ts';
import { requestInfo, type Env, type TeamAppDeps } from '../../team/http-context.ts';
import type { Principal } from '../../team/principal.ts';
import { asTenant } from '../../team/tenant.ts';
import { signInWithPassword, signInWithToken, signOut } from '../../team/web-session.ts';
import {
  webLinks,
  webMemories,
  webMemory,
  webNodeLinks,
  webProjects,
  webSession,
  webSessions,
} from '../../team/web-store.ts';
import type { ViewerAssets } from '../http/deps.ts';
import { layout, type Html, type NavEntry } from '../http/pages/layout.ts';
import { strictHeaders } from '../http/security.ts';
import { auditPage, graphPage, neighbourhoodOfLinks, sessionPage, sessionsPage } from './team-pages.ts';
import { loginPage, memoryPage, projectsPage, searchPage } from './memory-pages.ts';
import {
  clearSessionCookie,
  csrfMatches,
  csrfTokenOf,
  fromOwnPage,
  sessionSecret,
  setSessionCookie,
} from './web-auth.ts';

type WebEnv = { Variables: Env['Variables'] & SecureHeadersVariables };
type C = Context<WebEnv>;

export const TEAM_NAV: readonly NavEntry[] = [
  { key: 'projects', href: '/', label: 'Projects' },
  { key: 'search', href: '/search', label: 'Search' },
  { key: 'sessions', href: '/sessions', label: 'Sessions' },
  { key: 'graph', href: '/graph', label: 'Graph' },
  { key: 'audit', href: '/audit', label: 'Audit log' },
];

const PAGE_PATHS = [
  '/',
  '/login',
  '/logout',
  '/search',
  '/memories/*',
  '/sessions',
  '/sessions/*',
  '/graph',
  '/audit',
];

const PROJECT_RE = /^prj_[0-9a-z]{1,64}$/;

const wholeNumber = (v: string | undefined): number | null =>
  v !== undefined && /^\d{1,18}$/.test(v) ? Number(v) : null;

export interface TeamWebOptions {
  assets: ViewerAssets;
}

/** Mount the web view's routes on the team server's app (as `TeamServerOptions.mount`). */
export function mountTeamWeb(options: TeamWebOptions) {
  const { assets } = options;
  return (parent: Hono<Env>, deps: TeamAppDeps): void => {
    const app = parent as unknown as Hono<WebEnv>;
    for (const path of PAGE_PATHS) app.use(path, strictHeaders('same-origin'));
    app.use('/assets/*', secureHeaders({ crossOriginResourcePolicy: 'same-origin' }));
    // A sign-in or sign-out form is a few hundred bytes; nothing larger is read (or hashed).
    for (const path of ['/login', '/logout'])
      app.use(path, bodyLimit({ maxSize: 16 * 1024, onError: (c) => c.text('Payload Too Large', 413) }));

    const nonce = (c: C) => c.get('secureHeadersNonce') ?? '';
    const shell = (c: C, who: Principal | null) => ({
      nav: who ? TEAM_NAV : [],
      live: false,
      referrer: 'same-origin' as const,
      account: who
        ? html`<div class="account">
            <span>Signed in as <strong>${who.userName}</strong></span>
            <form method="post" action="/logout">
              <input type="hidden" name="csrf" value="${csrfTokenOf(sessionSecret(c) ?? '')}" />
              <button type="submit" class="secondary">Sign out</button>
            </form>
          </div>`
        : undefined,
    });
    const render = (
      c: C,
      who: Principal | null,
      title: string,
      nav: string | null,
      body: Html,
      status: 200 | 400 | 401 | 403 | 404 | 429 = 200,
    ) => {
      c.header('cache-control', 'no-store');
      return c.html(
        layout(nonce(c), assets, { title, nav, body, page: nav ?? 'error' }, shell(c, who)),
        status,
      );
    };
    const errorPage = (c: C, who: Principal | null, status: 400 | 403 | 404 | 429, message: string) => {
      const title = status === 404 ? 'Not found' : status === 400 ? 'Not understood' : 'Refused';
      return render(
        c,
        who,
        title,
        null,
        html`<h1>${title}</h1>
          <p>${message}</p>`,
        status,
      );
    };

    /** A page as the session's tenant: no valid session → the sign-in page. */
    const page =
      (
        fn: (
          c: C,
          tx: Tx,
          who: Principal,
        ) => Promise<{ title: string; nav: string | null; body: Html; chain?: string; target?: string }>,
      ) =>
      async (c: C) => {
        const info = {
          ...requestInfo(deps, c as unknown as Context<Env>),
          token: sessionSecret(c),
          web: true,
        };
        let who: Principal | null = null;
        try {
          const out = await asTenant(deps, info, 'read', async (tx, w) => {
            who = w;
            const p = await fn(c, tx, w);
            await appendAudit(tx, {
              chain: p.chain ?? SERVER_CHAIN,
              at: deps.clock.now(),
              principal: w,
              action: 'web.read',
              target: p.target ?? c.req.path,
              requestId: info.requestId,
            });
            return p;
          });
          return render(c, who, out.title, out.nav, out.body);
        } catch (error) {
          if (!isEngramError(error)) throw error;
          if (error.code === 'UNAUTHORIZED') {
            if (info.token !== null) clearSessionCookie(c, deps.trustProxy);
            return c.redirect('/login', 303);
          }
          if (error.code === 'NOT_FOUND') return errorPage(c, who, 404, error.message);
          if (error.code === 'RATE_LIMITED') return errorPage(c, who, 429, error.message);
          if (error.code === 'INPUT_INVALID') return errorPage(c, who, 400, error.message);
          if (error.code === 'FORBIDDEN') return errorPage(c, who, 403, error.message);
          throw error;
        }
      };

    const projectParam = (c: C): string | null => {
      const p = c.req.query('project');
      if (p === undefined || p === '') return null;
      if (!PROJECT_RE.test(p)) throw new EngramError('INPUT_INVALID', 'project takes a prj_ id');
      return p;
    };

    app.get('/assets/viewer.js', (c) => {
      c.header('cache-control', 'max-age=31536000, immutable');
      return c.body(assets.js, 200, { 'content-type': 'text/javascript; charset=utf-8' });
    });
    app.get('/assets/viewer.css', (c) => {
      c.header('cache-control', 'max-age=31536000, immutable');
      return c.body(assets.css, 200, { 'content-type': 'text/css; charset=utf-8' });
    });
    app.get('/favicon.ico', (c) => c.body(null, 204));

    app.get('/login', (c) => render(c, null, 'Sign in', null, loginPage(null)));

    app.post('/login', async (c) => {
      if (!fromOwnPage(c))
        return errorPage(c, null, 403, 'A sign-in must come from this server’s own sign-in page.');
      const form = await c.req.parseBody();
      const info = requestInfo(deps, c as unknown as Context<Env>);
      const str = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
      try {
        const session = str('token')
          ? await signInWithToken(deps, info, str('token'))
          : await signInWithPassword(deps, info, str('name'), str('password'));
        if (!session) return render(c, null, 'Sign in', null, loginPage('Wrong user name or password.'), 401);
        setSessionCookie(c, session.secret, deps.trustProxy);
        return c.redirect('/', 303);
      } catch (error) {
        if (!isEngramError(error)) throw error;
        if (error.code === 'RATE_LIMITED')
          return render(
            c,
            null,
            'Sign in',
            null,
            loginPage('Too many sign-in attempts: wait a minute and try again.'),
            429,
          );
        if (error.code === 'UNAUTHORIZED' || error.code === 'FORBIDDEN')
          return render(
            c,
            null,
            'Sign in',
            null,
            loginPage('That token is not valid here (unknown, expired, revoked, or without the read scope).'),
            401,
          );
        throw error;
      }
    });

    app.post('/logout', async (c) => {
      const secret = sessionSecret(c);
      const form = await c.req.parseBody();
      if (!fromOwnPage(c) || secret === null || !csrfMatches(secret, form['csrf']))
        return errorPage(c, null, 403, 'Sign-out must come from this server’s own pages.');
      const info = { ...requestInfo(deps, c as unknown as Context<Env>), token: secret };
      try {
        await signOut(deps, info);
      } catch (error) {
        if (!isEngramError(error) || (error.code !== 'UNAUTHORIZED' && error.code !== 'NOT_FOUND'))
          throw error;
      }
      clearSessionCookie(c, deps.trustProxy);
      return c.redirect('/login', 303);
    });

    app.get(
      '/',
      page(async (_c, tx) => ({
        title: 'Projects',
        nav: 'projects',
        body: projectsPage(await webProjects(tx)),
      })),
    );

    app.get(
      '/search',
      page(async (c, tx) => {
        const project = projectParam(c);
        const words = (c.req.query('q') ?? '').trim().slice(0, 500) || null;
        const type = (c.req.query('type') ?? '').trim().slice(0, 40) || null;
        const cursor = wholeNumber(c.req.query('cursor'));
        const projects = await webProjects(tx);
        const found = await webMemories(tx, { project, words, type, before: cursor, limit: 50 });
        const now = deps.clock.now();
        const body = searchPage({ projects, project, words, type, ...found, isFirst: cursor === null, now });
        return {
          title: words ? `Search: ${words}` : 'Search',
          nav: 'search',
          body,
          chain: project ?? SERVER_CHAIN,
        };
      }),
    );

    app.get(
      '/memories/:id',
      page(async (c, tx) => {
        const id = c.req.param('id') ?? '';
        const m = id.length <= 200 ? await webMemory(tx, id) : null;
        if (!m) throw new EngramError('NOT_FOUND', `no memory ${id} you may read`);
        const body = memoryPage(m, deps.clock.now());
        return { title: m.line.title.slice(0, 80), nav: 'search', body, chain: m.line.projectId, target: id };
      }),
    );

    app.get(
      '/sessions',
      page(async (c, tx) => {
        const project = projectParam(c);
        const cursor = wholeNumber(c.req.query('cursor'));
        const projects = await webProjects(tx);
        const list = await webSessions(tx, { project, before: cursor, limit: 50 });
        const body = sessionsPage(list, projects, project, cursor === null, deps.clock.now());
        return { title: 'Sessions', nav: 'sessions', body, chain: project ?? SERVER_CHAIN };
      }),
    );

    app.get(
      '/sessions/:id',
      page(async (c, tx) => {
        const id = c.req.param('id') ?? '';
        const s = id.length <= 200 ? await webSession(tx, id) : null;
        if (!s) throw new EngramError('NOT_FOUND', `no session ${id} you may read`);
        const body = sessionPage(s.session, s.memories, deps.clock.now());
        const title = `Session ${s.session.summary.request.slice(0, 60) || id}`;
        return { title, nav: 'sessions', body, chain: s.session.projectId, target: id };
      }),
    );

    app.get(
      '/graph',
      page(async (c, tx) => {
        const projects = await webProjects(tx);
        const id = (c.req.query('id') ?? '').trim().slice(0, 1200) || null;
        if (id !== null) {
          const found = await webNodeLinks(tx, id, 200);
          const around = found ? neighbourhoodOfLinks(id, found.memory, found.links) : null;
          const body = graphPage({ projects, project: null, id, around, links: null });
          return {
            title: 'Graph',
            nav: 'graph',
            body,
            chain: found?.memory?.projectId ?? SERVER_CHAIN,
            target: id,
          };
        }
        const project = projectParam(c) ?? projects[0]?.id ?? null;
        const links = project ? await webLinks(tx, project, 500) : null;
        const body = graphPage({ projects, project, id: null, around: null, links });
        return { title: 'Graph', nav: 'graph', body, chain: project ?? SERVER_CHAIN };
      }),
    );

    app.get(
      '/audit',
      page(async (c, tx) => {
        const project = projectParam(c);
        const projects = await webProjects(tx);
        const entries = await listAudit(tx, { chain: project ?? undefined, limit: 200 });
        const body = auditPage(entries, projects, project, deps.clock.now());
        return { title: 'Audit log', nav: 'audit', body, chain: project ?? SERVER_CHAIN, target: 'audit' };
      }),
    );
  };
}
