import { kindOfApp } from '../app-kinds.js';
import { linkedinDefinition } from './definition.js';

/**
 * The two kinds of LinkedIn developer app an account can be connected through (docs/networks.md
 * "Two kinds of LinkedIn app"). LinkedIn's portal lets the Community Management API be the only
 * product on its app, so posting as a Page needs an app of its own:
 * - `member`: Sign In with LinkedIn using OpenID Connect + Share on LinkedIn; posts as the member;
 * - `community`: the Community Management API; posts as the member and as the Pages they manage.
 * The definition declares them (its `appChoice`); this names them for the connector.
 */
const LINKEDIN_APP_CHOICE = {
  platform: linkedinDefinition.platform,
  displayName: linkedinDefinition.displayName,
  ...linkedinDefinition.appChoice,
};

export type LinkedInAppKind = keyof typeof LINKEDIN_APP_CHOICE.kinds;

/** Each kind of LinkedIn app and whose credentials it is (LINKEDIN_*, LINKEDIN_COMMUNITY_*). */
export const LINKEDIN_APP_OF_KIND = LINKEDIN_APP_CHOICE.kinds;

/** The kind of app a LinkedIn account's tokens came from; none recorded: the member app (LINKEDIN). */
export function linkedInAppKindOf(networkApp: string | undefined): LinkedInAppKind {
  return kindOfApp(LINKEDIN_APP_CHOICE, networkApp);
}
