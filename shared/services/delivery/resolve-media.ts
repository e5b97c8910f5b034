import { filenameOfUrl, mediaKindOf, type VideoFacts } from '../../domain/media.js';
import type { MediaRef, Post } from '../../domain/posts.js';
import type { DeliveryMedia } from '../../ports/connector.js';
import { fetchFailureCode } from '../../ports/media-fetcher.js';
import type { PostContext } from '../../ports/post-store.js';
import { mediaRefsWithPaths, sideMediaRefs } from '../posts/post-checks.js';
import type { DeliveryDeps } from './delivery-deps.js';
import type { StepResult } from './verdict.js';

/**
 * Step 4, resolve media, in the order of the post's references: stored media (`id`) must still
 * exist (a deleted one fails the post with media_not_found); public URLs are fetched now, through
 * the SSRF guard, and stored before the network sees them. A URL host that is down or slow may be
 * back later (a failed attempt, retried like a network's 5xx); a refused URL or an unfit file will
 * not change (the post fails). Once the network has some of the post (a check while it processes a
 * video, a retry after part of a thread), a URL is not fetched again: the copy stored the first time
 * is what the network already has. A fetched video's duration is read from the bytes in hand, for
 * the check before the network is called (check-video-durations.ts).
 */
export function makeResolveMedia(
  deps: Pick<DeliveryDeps, 'fetchMedia' | 'storage' | 'clock' | 'videoProbe'>,
) {
  const fromUrl = async (
    post: Post,
    ref: MediaRef & { url: string },
    slot: string,
  ): Promise<StepResult<DeliveryMedia>> => {
    const kind = ref.type ?? 'image';
    const key = `t/${post.tenantId}/w/${post.workspaceId}/p/${post.postId}/${slot}`;
    const asStored = (
      file: { finalUrl: string; contentType: string; size: number },
      video: VideoFacts = {},
    ): DeliveryMedia => ({
      kind,
      url: ref.url,
      stored: {
        mediaId: `${post.postId}-${slot}`,
        tenantId: post.tenantId,
        workspaceId: post.workspaceId,
        filename: filenameOfUrl(file.finalUrl),
        mimeType: file.contentType,
        sizeBytes: file.size,
        status: 'uploaded',
        objectKey: key,
        source: 'url',
        sourceUrl: ref.url,
        createdAt: new Date(deps.clock.now()).toISOString(),
        ...video,
      },
      ...(ref.alt && { alt: ref.alt }),
    });
    if (post.delivery?.progress !== undefined) {
      const kept = await deps.storage.head(key);
      if (kept?.contentType) {
        return {
          proceed: asStored({ finalUrl: ref.url, contentType: kept.contentType, size: kept.contentLength }),
        };
      }
    }
    try {
      const fetched = await deps.fetchMedia(ref.url, kind);
      await deps.storage.put(key, fetched.bytes, fetched.contentType);
      const video = await deps.videoProbe.inMemory(fetched.bytes, fetched.contentType);
      return {
        proceed: asStored(
          { finalUrl: fetched.finalUrl, contentType: fetched.contentType, size: fetched.bytes.length },
          video,
        ),
      };
    } catch (error) {
      const code = fetchFailureCode(error);
      if (!code) throw error;
      const message = error instanceof Error ? error.message : `The media URL ${ref.url} could not be used.`;
      if ((error as { transient?: unknown }).transient === true) {
        return {
          settle: { kind: 'failure', origin: 'service', facts: { failure: 'transient', code, message } },
        };
      }
      return { settle: { kind: 'fail', error: { origin: 'service', code, message, retryable: false } } };
    }
  };

  /** One reference: its stored record, or its URL fetched and stored under `slot`. */
  const resolveRef = async (
    post: Post,
    context: PostContext,
    ref: MediaRef,
    slot: string,
  ): Promise<StepResult<DeliveryMedia | undefined>> => {
    if (ref.id) {
      const stored = context.media.get(ref.id);
      if (!stored) {
        return {
          settle: {
            kind: 'fail',
            error: {
              origin: 'service',
              code: 'media_not_found',
              message: `Media ${ref.id} was deleted before delivery.`,
              retryable: false,
            },
          },
        };
      }
      return {
        proceed: { kind: mediaKindOf(stored.mimeType) ?? 'image', stored, ...(ref.alt && { alt: ref.alt }) },
      };
    }
    if (ref.url) return fromUrl(post, { ...ref, url: ref.url }, slot);
    return { proceed: undefined };
  };

  /** The references in order, each resolved; the first that cannot be settles the delivery. */
  const resolveAll = async (
    post: Post,
    context: PostContext,
    refs: readonly { ref: MediaRef; slot: string }[],
  ): Promise<StepResult<DeliveryMedia[]>> => {
    const media: DeliveryMedia[] = [];
    for (const { ref, slot } of refs) {
      const resolved = await resolveRef(post, context, ref, slot);
      if ('settle' in resolved) return resolved;
      if (resolved.proceed) media.push(resolved.proceed);
    }
    return { proceed: media };
  };

  return {
    /** The content's media, in the content's order (URL media stored under their index). */
    async content(post: Post, context: PostContext): Promise<StepResult<ResolvedMedia>> {
      const refs = mediaRefsWithPaths(post).map(({ ref }, index) => ({ ref, slot: String(index) }));
      const items = await resolveAll(post, context, refs);
      if ('settle' in items) return items;
      const side: { linkThumbnail?: DeliveryMedia; optionMedia?: Record<string, DeliveryMedia> } = {};
      for (const { ref, role } of sideMediaRefs(post)) {
        if (role.kind === 'comment') continue;
        const slot = role.kind === 'link_thumbnail' ? 'link' : `option-${role.name}`;
        const resolved = await resolveRef(post, context, ref, slot);
        if ('settle' in resolved) return resolved;
        if (!resolved.proceed) continue;
        if (role.kind === 'link_thumbnail') side.linkThumbnail = resolved.proceed;
        else side.optionMedia = { ...side.optionMedia, [role.name]: resolved.proceed };
      }
      return { proceed: { items: items.proceed, ...side } };
    },
    /** The first comment's media (URL media stored under `comment-<index>`). */
    comment(post: Post, context: PostContext): Promise<StepResult<DeliveryMedia[]>> {
      const refs = (post.firstComment?.media ?? []).map((ref, index) => ({ ref, slot: `comment-${index}` }));
      return resolveAll(post, context, refs);
    },
  };
}

/** A post's media as the connector gets it: the content's in order, and what else the post references. */
export interface ResolvedMedia {
  items: DeliveryMedia[];
  linkThumbnail?: DeliveryMedia;
  optionMedia?: Readonly<Record<string, DeliveryMedia>>;
}
