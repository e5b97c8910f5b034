import { replies } from './http.js';
import { type ApiContext, type Handler, hasScope, personUrn } from './route.js';

/** GET /v2/userinfo (OpenID): needs `openid`; name and picture with `profile`, email with `email`. */
export const userinfo: Handler<ApiContext> = ({ token, member }) => {
  if (!hasScope(token, 'openid')) return replies.accessDenied('/userinfo');
  const profile = hasScope(token, 'profile');
  return {
    status: 200,
    json: {
      sub: member.sub,
      ...(profile && {
        name: member.name,
        given_name: member.givenName,
        family_name: member.familyName,
        ...(member.picture && { picture: member.picture }),
        locale: { country: 'US', language: 'en' },
      }),
      ...(hasScope(token, 'email') && { email: member.email, email_verified: true }),
    },
  };
};

const localized = (value: string) => ({
  localized: { en_US: value },
  preferredLocale: { country: 'US', language: 'en' },
});

/**
 * GET /v2/me (Profile API): the token's member, for `r_liteprofile` or `r_basicprofile` (the
 * Community Management app's; no `openid` there, so no userinfo): the id, the localized names and,
 * with `r_basicprofile`, the vanity name. The picture is only an asset URN without a projection.
 */
export const me: Handler<ApiContext> = ({ token, member }) => {
  if (!hasScope(token, 'r_liteprofile', 'r_basicprofile')) return replies.accessDenied('/me');
  return {
    status: 200,
    json: {
      id: member.sub,
      firstName: localized(member.givenName),
      localizedFirstName: member.givenName,
      lastName: localized(member.familyName),
      localizedLastName: member.familyName,
      ...(hasScope(token, 'r_basicprofile') && member.vanityName && { vanityName: member.vanityName }),
    },
  };
};

/**
 * GET /rest/organizationAcls?q=roleAssignee: the token's member's roles on Pages, filtered by
 * `role` and `state` when given, paged by `start`/`count` (needs r_organization_admin or
 * rw_organization_admin).
 */
export const organizationAcls: Handler<ApiContext> = (context) => {
  const query = context.url.searchParams;
  if (query.get('q') !== 'roleAssignee') return replies.badRequest('Unsupported finder.');
  if (!hasScope(context.token, 'r_organization_admin', 'rw_organization_admin')) {
    return replies.accessDenied('organizationAcls.FINDER-roleAssignee');
  }
  const role = query.get('role');
  const state = query.get('state');
  const start = Number(query.get('start') ?? 0);
  const count = Math.min(Number(query.get('count') ?? 10), 100);
  const all = context.store.acls.filter(
    (acl) =>
      acl.member === context.member.sub && (!role || acl.role === role) && (!state || acl.state === state),
  );
  return {
    status: 200,
    json: {
      paging: { start, count, total: all.length, links: [] },
      elements: all.slice(start, start + count).map((acl) => ({
        roleAssignee: personUrn(acl.member),
        organization: acl.organization,
        role: acl.role,
        state: acl.state,
      })),
    },
  };
};
