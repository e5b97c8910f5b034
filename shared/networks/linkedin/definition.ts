import { defineNetwork } from '../definition.js';
import { linkedInOptions } from './options-schema.js';
import { linkedInRules } from './rules.js';

/** LinkedIn as data (../definition.ts): what the rest of the service may know of it. */
export const linkedinDefinition = defineNetwork({
  platform: 'linkedin',
  displayName: 'LinkedIn',
  aliases: [],
  postTypes: ['text', 'image', 'video', 'document', 'carousel'],
  rules: linkedInRules,
  platformOptions: linkedInOptions,
  sandboxHandle: 'sandbox-professional',
  dailyQuota: { limit: 100, unit: 'posts', costPerPost: 1 },
  apps: [
    // A member app (Sign In with OpenID Connect + Share on LinkedIn), and a Community Management
    // app, which LinkedIn allows no other product beside (apps.ts chooses between them).
    'LINKEDIN',
    'LINKEDIN_COMMUNITY',
  ],
  endpoints: {
    LINKEDIN_API_URL: 'https://api.linkedin.com',
    LINKEDIN_OAUTH_URL: 'https://www.linkedin.com/oauth/v2',
  },
});
