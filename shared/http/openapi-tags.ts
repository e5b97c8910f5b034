/**
 * What each tag groups, for the document's top-level `tags`. The list of tags itself is not kept
 * here: it is the tags the operations and webhooks use, in order of first use; a tag used without
 * a description here stops the document from being built (and so every test that builds it).
 */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Workspaces: 'The workspaces an API key can act in. Every other resource belongs to one workspace.',
  Accounts:
    'The social network accounts a workspace publishes from: connect one through the network’s consent page (OAuth), read its status and limits, disconnect it.',
  Posts:
    'Create a post for one account (now, scheduled, or as a draft), check one without creating it, read, list, edit, reschedule and cancel posts. Delivery is asynchronous.',
  Approvals: 'Approve or reject a post that a workspace’s approval gate holds (status pending_approval).',
  Media:
    'Images, videos and documents for posts: upload through a presigned URL or import from a public URL, then refer to them by id.',
  Webhooks:
    'Receivers the service POSTs events to, signed: register and delete them, read their delivery history, redeliver, send a test event. Also the event feed, for callers without a receiver. The bodies delivered are under `webhooks`.',
  Meta: 'About the API itself: this document.',
};

export interface TagObject {
  name: string;
  description: string;
}

/** The declared tags: each tag in `used` once, in order of first use, with its description. */
export function declaredTags(used: Iterable<string>): TagObject[] {
  return [...new Set(used)].map((name) => {
    const description = TAG_DESCRIPTIONS[name];
    if (!description) {
      throw new Error(`The tag "${name}" has no description: add one in shared/http/openapi-tags.ts.`);
    }
    return { name, description };
  });
}
