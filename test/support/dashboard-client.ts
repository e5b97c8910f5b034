import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { makeDocumentClient, makeDynamoClient } from '../../shared/adapters/dynamodb/client.js';
import { makeDynamoUserStore } from '../../shared/adapters/dynamodb/user-store.js';
import { newId } from '../../shared/domain/ids.js';
import type { User, UserRole } from '../../shared/domain/users.js';
import { silentLogger } from '../../shared/ports/logger.js';
import type { UserStore } from '../../shared/ports/user-store.js';
import type { DashboardAuth } from '../../shared/services/users/dashboard-auth.js';
import { makeDashboardAuth } from '../../shared/services/users/make-dashboard-auth.js';
import { makeUserAdmin, type UserAdmin } from '../../shared/services/users/user-admin.js';
import type { TestHost } from './test-host.js';

/** What a dashboard request answered, as a test reads it. */
export interface DashboardAnswer {
  status: number;
  /** The Location header of a redirect. */
  location: string | undefined;
  html: string;
  headers: Headers;
}

export type FormValues = Record<string, string | readonly string[]>;

export interface PostOptions {
  /** The `_csrf` field: the page's token by default; false sends none; a string sends that. */
  csrf?: string | false;
  /** The Origin header: the host's by default; false sends none. */
  origin?: string | false;
  /** More request headers (an X-Amzn-Trace-Id). */
  headers?: Record<string, string>;
}

/**
 * A browser against the dashboard over real HTTP: a cookie jar, the forms' CSRF token as the
 * pages carry it, an Origin header on posts, and no redirect following (tests look at them).
 * Paths are the dashboard's own (`/workspaces`) or full (`/dashboard/workspaces`).
 */
export interface DashboardClient {
  get(path: string): Promise<DashboardAnswer>;
  post(path: string, form?: FormValues, options?: PostOptions): Promise<DashboardAnswer>;
  /** A cookie the dashboard set and has not cleared. */
  cookie(name: string): string | undefined;
  /** The CSRF token the forms of the last page carried (read from a page when none was seen yet). */
  csrfToken(): Promise<string>;
}

const CSRF_INPUT = /<input type="hidden" name="_csrf" value="([^"]+)">/;

function dashboardPath(path: string): string {
  return path.startsWith('/dashboard') ? path : `/dashboard${path.startsWith('/') ? '' : '/'}${path}`;
}

function encodeForm(form: FormValues): string {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    if (typeof value === 'string') body.append(name, value);
    else for (const one of value) body.append(name, one);
  }
  return body.toString();
}

/** A client without a session (it gets one by posting the sign-in form, or through `signIn`). */
export function dashboardClient(host: Pick<TestHost, 'baseUrl'>): DashboardClient {
  const jar = new Map<string, string>();
  let token: string | undefined;

  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const cleared = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (cleared) jar.delete(name);
      else jar.set(name, value);
      // A new session means new forms: the token of the page before no longer applies.
      if (name === 'sp_session') token = undefined;
    }
  };

  const send = async (path: string, init: RequestInit): Promise<DashboardAnswer> => {
    const cookies = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${host.baseUrl}${dashboardPath(path)}`, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookies && { Cookie: cookies }) },
    });
    remember(response);
    const html = await response.text();
    const found = CSRF_INPUT.exec(html)?.[1];
    if (found) token = found;
    return {
      status: response.status,
      location: response.headers.get('location') ?? undefined,
      html,
      headers: response.headers,
    };
  };

  const client: DashboardClient = {
    get: (path) => send(path, { method: 'GET' }),
    async post(path, form = {}, options = {}) {
      const csrf = options.csrf === undefined ? await client.csrfToken() : options.csrf;
      const origin = options.origin === undefined ? host.baseUrl : options.origin;
      return send(path, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(origin !== false && { Origin: origin }),
          ...options.headers,
        },
        body: encodeForm({ ...form, ...(csrf !== false && { _csrf: csrf }) }),
      });
    },
    cookie: (name) => jar.get(name),
    async csrfToken() {
      if (token) return token;
      await send(jar.has('sp_session') ? '/me' : '/sign-in', { method: 'GET' });
      if (!token) throw new Error('The dashboard page carried no CSRF token.');
      return token;
    },
  };
  return client;
}

/** The people use cases on the host's own tables (what the admin CLI and the pages use). */
export interface HostUsers {
  store: UserStore;
  auth: DashboardAuth;
  userAdmin: UserAdmin;
}

const hostUsersCache = new WeakMap<object, HostUsers>();

export function hostUsers(host: Pick<TestHost, 'config' | 'deps'>): HostUsers {
  const cached = hostUsersCache.get(host.config);
  if (cached) return cached;
  const endpoint = host.config.dynamodbEndpoint ?? inject('dynamodbEndpoint');
  const db = makeDocumentClient(makeDynamoClient({ region: host.config.region, endpoint }));
  const store = makeDynamoUserStore(db, host.config.tables);
  const deps = { users: store, tenancy: host.deps.tenancy, clock: host.deps.clock, logger: silentLogger };
  const made = { store, auth: makeDashboardAuth(deps), userAdmin: makeUserAdmin(deps) };
  hostUsersCache.set(host.config, made);
  return made;
}

/** A password that meets the rule, different every time. */
export function newPassword(): string {
  return `pw-${randomBytes(12).toString('base64url')}`;
}

export interface CreatedUser {
  user: User;
  email: string;
  password: string;
}

/**
 * A user of `tenantId` with a password, made the way people are: an owner through the admin
 * CLI's use case, anyone else invited by an owner; then the one-time link sets the password.
 */
export async function createUser(
  host: Pick<TestHost, 'config' | 'deps'>,
  input: { tenantId: string; role: UserRole; workspaceIds?: string[]; email?: string; password?: string },
): Promise<CreatedUser> {
  const { auth, userAdmin } = hostUsers(host);
  const email = input.email ?? `${input.role}-${randomBytes(6).toString('hex')}@example.com`;
  const password = input.password ?? newPassword();
  const link =
    input.role === 'owner'
      ? await userAdmin.createOwner({ tenantId: input.tenantId, email })
      : await auth.inviteUser(invitingOwner(input.tenantId), {
          email,
          role: input.role,
          workspaceIds: input.workspaceIds ?? [],
        });
  const done = await auth.setPasswordWithLink(link.token, password);
  if (!done) throw new Error('The one-time link of a new user did not work.');
  return { user: done.user, email, password };
}

/** Who invites in `createUser`: an owner of the tenant (inviting needs only who they are). */
function invitingOwner(tenantId: string): User {
  return {
    userId: newId('user'),
    tenantId,
    email: 'owner@example.com',
    role: 'owner',
    workspaceIds: [],
    sessionEpoch: 0,
    createdAt: new Date(0).toISOString(),
  };
}

/** Posts the sign-in form as a browser would; the client holds the session. Throws unless signed in. */
export async function signIn(
  host: Pick<TestHost, 'baseUrl'>,
  email: string,
  password: string,
): Promise<DashboardClient> {
  const client = dashboardClient(host);
  const answer = await client.post('/sign-in', { email, password });
  if (answer.status !== 303 || !client.cookie('sp_session')) {
    throw new Error(`Sign-in as ${email} answered ${answer.status}, not a redirect with a session.`);
  }
  return client;
}

/** A new user of the role, signed in. Without `tenantId`, in a tenant of its own. */
export async function signedInAs(
  host: TestHost,
  input: { role: UserRole; tenantId?: string; workspaceIds?: string[] },
): Promise<CreatedUser & { client: DashboardClient; tenantId: string }> {
  const tenantId = input.tenantId ?? (await host.admin.createTenant({ name: 'Dashboard tenant' })).tenantId;
  const created = await createUser(host, { ...input, tenantId });
  return { ...created, tenantId, client: await signIn(host, created.email, created.password) };
}
