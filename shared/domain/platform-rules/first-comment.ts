import type { NetworkDefinition } from '../../networks/definition.js';
import { definitionOf, NETWORK_NAMES } from '../../networks/definitions.js';
import type { MediaKindLookup, PostDraft, RuleViolation } from '../posts.js';
import { violation } from './helpers.js';

/** Networks that take a first comment, for the messages of the ones that do not. */
function networksTakingComments(): string {
  return Object.keys(NETWORK_NAMES)
    .filter((platform) => (definitionOf(platform as PostDraft['platform']) as NetworkDefinition).firstComment)
    .map((platform) => NETWORK_NAMES[platform as PostDraft['platform']])
    .join(', ');
}

/**
 * A post's `firstComment` against its network's `firstComment` support (docs/first-comment.md):
 * refused where the network takes none; its text within the network's length; its media of the
 * kinds, and no more than the number, a comment there may carry.
 */
export function firstCommentViolations(draft: PostDraft, kindOf: MediaKindLookup): RuleViolation[] {
  const comment = draft.firstComment;
  if (!comment) return [];
  const support = (definitionOf(draft.platform) as NetworkDefinition).firstComment;
  const name = NETWORK_NAMES[draft.platform];
  if (!support) {
    return [
      violation(
        'firstComment',
        'FIRST_COMMENT_NOT_SUPPORTED',
        `${name} has no way to comment on a post through its API; first comments are made on ${networksTakingComments()}.`,
      ),
    ];
  }
  const out: RuleViolation[] = [];
  const length = [...comment.text].length;
  if (comment.text.trim() === '') {
    out.push(violation('firstComment.text', 'TEXT_REQUIRED', 'A first comment needs text.'));
  } else if (length > support.maxLength) {
    out.push(
      violation(
        'firstComment.text',
        'FIRST_COMMENT_TOO_LONG',
        `${name} takes comments of at most ${support.maxLength} characters; this one has ${length}.`,
      ),
    );
  }
  const media = comment.media ?? [];
  if (media.length > 0 && support.mediaKinds.length === 0) {
    out.push(
      violation(
        'firstComment.media',
        'MEDIA_NOT_ALLOWED',
        `${name} comments are text only: remove the media.`,
      ),
    );
    return out;
  }
  if (media.length > support.maxMedia) {
    out.push(
      violation(
        'firstComment.media',
        'TOO_MANY_MEDIA',
        `${name} comments carry at most ${support.maxMedia} media item${support.maxMedia === 1 ? '' : 's'}; this one has ${media.length}.`,
      ),
    );
  }
  media.forEach((ref, index) => {
    const kind = kindOf(ref);
    if (kind && !support.mediaKinds.includes(kind)) {
      out.push(
        violation(
          `firstComment.media[${index}]`,
          'MEDIA_KIND_NOT_ALLOWED',
          `${name} comments carry ${support.mediaKinds.join(' or ')} media, not ${kind}.`,
        ),
      );
    }
  });
  return out;
}
