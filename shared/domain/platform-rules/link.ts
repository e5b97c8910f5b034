import type { NetworkDefinition } from '../../networks/definition.js';
import { definitionOf, NETWORK_NAMES } from '../../networks/definitions.js';
import type { PostDraft, RuleViolation } from '../posts.js';
import { partsOf, violation } from './helpers.js';

/**
 * A post's `link` against its network's `linkPreview` (docs/networks.md "Link previews"): refused
 * where the network shows no card; on a post type that cannot carry one; beside media where the
 * card replaces them; and a title, description or thumbnail where the network builds the card
 * from the page itself (they would be dropped silently).
 */
export function linkViolations(draft: PostDraft): RuleViolation[] {
  const link = draft.link;
  if (!link) return [];
  const support = (definitionOf(draft.platform) as NetworkDefinition).linkPreview;
  const name = NETWORK_NAMES[draft.platform];
  if (!support) {
    return [
      violation(
        'link',
        'LINK_NOT_SUPPORTED',
        `${name} shows no link cards: put the URL in the text instead (it may not be clickable there).`,
      ),
    ];
  }
  const out: RuleViolation[] = [];
  if (!support.postTypes.includes(draft.postType)) {
    out.push(
      violation(
        'link',
        'LINK_NOT_SUPPORTED',
        `${name} shows a link card on ${support.postTypes.join(', ')} posts, not on ${draft.postType} posts.`,
      ),
    );
  }
  if (!support.withMedia && partsOf(draft).some((part) => part.media.length > 0)) {
    out.push(
      violation(
        'link',
        'LINK_WITH_MEDIA',
        `${name} shows either a link card or media on a post, not both: remove the media or the link.`,
      ),
    );
  }
  if (support.card === 'network') {
    for (const field of ['title', 'description', 'thumbnail'] as const) {
      if (link[field] !== undefined) {
        out.push(
          violation(
            `link.${field}`,
            'LINK_OVERRIDE_NOT_SUPPORTED',
            `${name} builds the card from the page's own tags; it takes no ${field}: remove it.`,
          ),
        );
      }
    }
  }
  return out;
}
