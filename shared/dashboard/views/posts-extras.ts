import { empty, type Html, html, join } from '../html.js';
import type { PostResource } from './posts-list.js';
import { utcTime } from './time.js';

const fact = (label: string, value: Html | string) => html`<dt>${label}</dt><dd>${value}</dd>`;

/** A link only to a web address; anything else is shown as text. */
function webLink(url: string): Html {
  return /^https?:\/\//i.test(url)
    ? html`<a href="${url}" rel="noopener noreferrer">${url}</a>`
    : html`${url}`;
}

/** What a first comment's status means, for a person (docs/first-comment.md). */
const COMMENT_STATUS_NOTES: Readonly<Record<NonNullable<PostResource['firstComment']>['status'], string>> = {
  waiting: 'waiting: it is made once the post is published',
  queued: 'queued: due now or at its next try',
  publishing: 'publishing',
  published: 'published',
  failed: 'failed: the post itself stays published',
  uncertain: 'uncertain: the network could not say whether it has it; it is not tried again, check the post',
};

/** The first comment: its text and media, and how its delivery went (the network's raw answer is never shown). */
function firstComment(post: PostResource): Html {
  const comment = post.firstComment;
  if (!comment) return empty;
  const media = comment.media.map((item, index) =>
    index === 0
      ? html`<code>${item.id ?? item.url ?? ''}</code>`
      : html`, <code>${item.id ?? item.url ?? ''}</code>`,
  );
  return html`<section aria-labelledby="first-comment-heading"><h2 id="first-comment-heading">First comment</h2><pre>${comment.text}</pre><dl class="facts">${join(
    [
      fact('Comment status', COMMENT_STATUS_NOTES[comment.status]),
      fact('Comment attempts', String(comment.attempts)),
      ...(media.length > 0 ? [fact('Comment media', join(media))] : []),
      ...(comment.publishedAt ? [fact('Commented', utcTime(comment.publishedAt))] : []),
      ...(comment.platformCommentUrl ? [fact('Comment URL', webLink(comment.platformCommentUrl))] : []),
      ...(comment.error
        ? [
            fact('Comment error', html`<code>${comment.error.code}</code> ${comment.error.message}`),
            fact('Comment retryable', comment.error.retryable ? 'yes' : 'no'),
          ]
        : []),
    ],
  )}</dl></section>`;
}

function linkCard(post: PostResource): Html {
  const link = post.link;
  if (!link) return empty;
  return html`<section aria-labelledby="link-heading"><h2 id="link-heading">Link card</h2><dl class="facts">${join(
    [
      fact('Link', webLink(link.url)),
      ...(link.title ? [fact('Card title', link.title)] : []),
      ...(link.description ? [fact('Card description', link.description)] : []),
      ...(link.thumbnail
        ? [fact('Card image', html`<code>${link.thumbnail.id ?? link.thumbnail.url ?? ''}</code>`)]
        : []),
    ],
  )}</dl></section>`;
}

/** An option's value as a person reads it: words for flags, lists joined, objects as their fields. */
function optionValue(value: unknown): Html {
  if (value === true) return html`yes`;
  if (value === false) return html`no`;
  if (Array.isArray(value))
    return html`${value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(', ')}`;
  if (value && typeof value === 'object') {
    return html`<dl>${join(Object.entries(value).map(([key, inner]) => fact(key, optionValue(inner))))}</dl>`;
  }
  return html`${String(value)}`;
}

/** Each option the post was given for its network (platformOptions), by its API name. */
function options(post: PostResource): Html {
  const own = post.platformOptions?.[post.platform];
  const entries = own ? Object.entries(own).filter(([, value]) => value !== undefined) : [];
  if (entries.length === 0) return empty;
  return html`<section aria-labelledby="options-heading"><h2 id="options-heading">Options</h2><dl class="facts">${join(
    entries.map(([key, value]) => fact(key, optionValue(value))),
  )}</dl></section>`;
}

/** What the network did with the post beside publishing it (an option it could not apply, a draft handed over). */
function warnings(post: PostResource): Html {
  const handedOver =
    post.status === 'awaiting_creator'
      ? html`<p>The network holds it as a draft in the creator's inbox: they finish and post it in the network's app. It is not published by the service and has no network id.</p>`
      : empty;
  if (post.warnings.length === 0 && handedOver === empty) return empty;
  return html`<section aria-labelledby="warnings-heading"><h2 id="warnings-heading">What to know</h2>${handedOver}${
    post.warnings.length > 0
      ? html`<ul>${join(post.warnings.map((warning) => html`<li><code>${warning.code}</code> ${warning.message}</li>`))}</ul>`
      : empty
  }</section>`;
}

/** What a post carries beside its content: the options it was given, its link card, its first comment, and what to know. */
export function postExtras(post: PostResource): Html {
  return html`${warnings(post)}${options(post)}${linkCard(post)}${firstComment(post)}`;
}
