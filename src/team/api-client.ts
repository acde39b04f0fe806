/**
 * A client of the team server's API over an injected `fetch`: used by the admin CLI, the sync client
 * and the tests. Answers are validated; failures become EngramErrors (REMOTE_FAILED when the
 * server cannot be reached or answers 5xx, so callers can tell "try later" from "refused").
 */
import { deadline } from '../core/deadline.ts';
import { EngramError, type ErrorCode } from '../core/errors.ts';
import type { z } from 'zod';
import {
  meResponseSchema,
  moveResponseSchema,
  projectKeysResponseSchema,
  pullResponseSchema,
  pushResponseSchema,
  reviewsResponseSchema,
  statesResponseSchema,
  type AuditEntry,
  type AuditVerifyReport,
  type MeResponse,
  type MoveResponse,
  type MemberState,
  type ProjectKeysResponse,
  type ProjectState,
  type PullResponse,
  type PushRecord,
  type PushResponse,
  type ReviewEvent,
  type Role,
  type Scope,
  type TokenInfo,
  type UserInfo,
  type WrappedKey,
} from './protocol.ts';

export interface TeamApiOptions {
  server: string;
  token: string;
  fetch?: typeof fetch;
  /** Abandon a request after this long. */
  timeoutMs?: number;
}

const CODES = new Set<string>([
  'INPUT_INVALID',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'RATE_LIMITED',
  'KEY_MISSING',
]);

export function createTeamApi(options: TeamApiOptions) {
  const base = options.server.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function call(method: string, path: string, body?: unknown, schema?: z.ZodType): Promise<unknown> {
    let res: Response;
    let text: string;
    const limit = deadline(timeoutMs);
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: limit.signal,
      });
      text = await res.text();
    } catch (error) {
      throw new EngramError(
        'REMOTE_FAILED',
        `cannot reach the team server at ${base}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    } finally {
      limit.clear();
    }
    let json: unknown;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch (error) {
      throw new EngramError(
        'REMOTE_FAILED',
        `the team server answered ${res.status} with something not JSON`,
        {
          cause: error,
        },
      );
    }
    if (!res.ok) {
      const err = (json as { error?: { code?: string; message?: string; hint?: string } } | null)?.error;
      const code = (
        res.status >= 500 || !err?.code || !CODES.has(err.code) ? 'REMOTE_FAILED' : err.code
      ) as ErrorCode;
      throw new EngramError(code, `team server: ${err?.message ?? `HTTP ${res.status}`}`, {
        ...(err?.hint ? { hint: err.hint } : {}),
        status: res.status,
      });
    }
    if (!schema) return json;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new EngramError('REMOTE_FAILED', `the team server's answer to ${path} is malformed`);
    }
    return parsed.data;
  }

  const project = (id: string) => `/v1/projects/${encodeURIComponent(id)}`;
  return {
    server: base,
    me: () => call('GET', '/v1/me', undefined, meResponseSchema) as Promise<MeResponse>,
    nameDevice: (device: string) => call('PUT', '/v1/me/device', { device }),
    push: (projectId: string, records: PushRecord[]) =>
      call('POST', `${project(projectId)}/push`, { records }, pushResponseSchema) as Promise<PushResponse>,
    /** Move a project into another (by its key, remote or `prj_` id) on the server. */
    moveProject: (projectId: string, to: string) =>
      call('POST', `${project(projectId)}/move`, { to }, moveResponseSchema) as Promise<MoveResponse>,
    pull: (projectId: string, after: number, limit?: number) =>
      call(
        'GET',
        `${project(projectId)}/pull?after=${after}${limit ? `&limit=${limit}` : ''}`,
        undefined,
        pullResponseSchema,
      ) as Promise<PullResponse>,
    /** Record a person's decisions on quarantined memories in the project's audit chain. */
    reviews: async (projectId: string, reviews: ReviewEvent[]): Promise<number> =>
      (
        (await call('POST', `${project(projectId)}/reviews`, { reviews }, reviewsResponseSchema)) as {
          recorded: number;
        }
      ).recorded,
    putState: (projectId: string, state: ProjectState) => call('PUT', `${project(projectId)}/state`, state),
    states: async (projectId: string): Promise<MemberState[]> =>
      (
        (await call('GET', `${project(projectId)}/state`, undefined, statesResponseSchema)) as {
          states: MemberState[];
        }
      ).states,
    /** Enrol this machine's device public key in a project; its device id. */
    enrolDevice: async (projectId: string, publicKey: string) =>
      ((await call('PUT', `${project(projectId)}/devices`, { publicKey })) as { id: string }).id,
    /** The project's enrolled devices and versions wrapped for each; the wraps addressed to `device`. */
    projectKeys: (projectId: string, device?: string) =>
      call(
        'GET',
        `${project(projectId)}/keys${device ? `?device=${encodeURIComponent(device)}` : ''}`,
        undefined,
        projectKeysResponseSchema,
      ) as Promise<ProjectKeysResponse>,
    putWraps: (projectId: string, wraps: WrappedKey[]) =>
      call('POST', `${project(projectId)}/keys`, { wraps }) as Promise<{ stored: number }>,
    addUser: (spec: { name: string; admin?: boolean; device?: string; password?: string }) =>
      call('POST', '/v1/admin/users', spec) as Promise<{
        user: { id: string; name: string; admin: boolean };
        tokenId: string;
        token: string;
      }>,
    listUsers: async () => ((await call('GET', '/v1/admin/users')) as { users: UserInfo[] }).users,
    removeUser: (name: string) => call('DELETE', `/v1/admin/users/${encodeURIComponent(name)}`),
    createToken: (spec: { user: string; device?: string; scopes?: Scope[]; expiresInDays?: number | null }) =>
      call('POST', '/v1/admin/tokens', spec) as Promise<{
        id: string;
        user: string;
        device: string;
        scopes: Scope[];
        token: string;
      }>,
    listTokens: async (user?: string) =>
      (
        (await call('GET', `/v1/admin/tokens${user ? `?user=${encodeURIComponent(user)}` : ''}`)) as {
          tokens: TokenInfo[];
        }
      ).tokens,
    revokeToken: (id: string) => call('DELETE', `/v1/admin/tokens/${encodeURIComponent(id)}`),
    grant: (spec: { user: string; project: string; role: Role }) =>
      call('POST', '/v1/admin/grants', spec) as Promise<{
        user: string;
        project: string;
        key: string | null;
        role: Role;
        createdProject: boolean;
      }>,
    revoke: (spec: { user: string; project: string }) => call('POST', '/v1/admin/grants/revoke', spec),
    audit: async (opts: { project?: string; limit?: number } = {}) => {
      const q = new URLSearchParams();
      if (opts.project) q.set('project', opts.project);
      if (opts.limit) q.set('limit', String(opts.limit));
      return ((await call('GET', `/v1/admin/audit?${q.toString()}`)) as { entries: AuditEntry[] }).entries;
    },
    verifyAudit: () => call('GET', '/v1/admin/audit/verify') as Promise<AuditVerifyReport>,
  };
}

export type TeamApi = ReturnType<typeof createTeamApi>;
