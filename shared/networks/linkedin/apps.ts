import type { LinkedInAppKind } from '../../domain/linkedin-apps.js';
import type { NetworkApp } from '../../ports/app-credentials.js';

/** Each kind of LinkedIn app and whose credentials it is (LINKEDIN_*, LINKEDIN_COMMUNITY_*). */
export const LINKEDIN_APP_OF_KIND: Readonly<Record<LinkedInAppKind, NetworkApp>> = {
  member: 'LINKEDIN',
  community: 'LINKEDIN_COMMUNITY',
};

/** The kind of app a LinkedIn account's tokens came from; none recorded: the member app (LINKEDIN). */
export function linkedInAppKindOf(networkApp: string | undefined): LinkedInAppKind {
  return networkApp === LINKEDIN_APP_OF_KIND.community ? 'community' : 'member';
}
