import type * as z from 'zod';
import type { MediaRef, PostType } from './post-shape.js';
import type { RuleViolation } from './rule-violation.js';

/**
 * What a network's `platformOptions` are: settings it has and the others do not, declared in
 * `shared/networks/<net>/options-schema.ts` and held by its definition. platform-options.ts builds
 * the API's `platformOptions` from them, one property per platform. Like the rules' kit, this file
 * imports nothing that derives from the definitions.
 */
export interface NetworkOptions<S extends z.ZodType = z.ZodType> {
  /** A strict object, so an unknown option is a 400 like any other unknown field. */
  readonly schema: S;
  /** What they are, in the API's description of `platformOptions.<platform>`. */
  readonly description: string;
  /** Said after the platform's name in the description of `platformOptions` (a required option). */
  readonly inputNote?: string;
  /**
   * The 422 items of options that need the post to be checked: a required option, an option its
   * post type cannot carry. A method, so a network's (typed by its schema) is held here: the
   * domain hands it only `platformOptions.<its platform>`, which its own schema read.
   */
  violations?(subject: OptionsSubject<z.output<S>>): RuleViolation[];
  /**
   * The media its options reference (YouTube's thumbnail, an Instagram reel's cover), by name: they
   * must exist like the post's own media, and reach the connector resolved, as
   * `PublishRequest.optionMedia[name]`. Each name's field path is `platformOptions.<platform>.<name>`.
   */
  media?(options: z.output<S>): Readonly<Record<string, MediaRef>>;
  /**
   * The OAuth scopes these options need beyond posting (TikTok's inbox mode: `video.upload`): an
   * account whose grant lacks one is told to reconnect before anything is created
   * (PLATFORM_OPTION_NEEDS_RECONNECT).
   */
  scopes?(options: z.output<S>): readonly string[];
}

/** What of a post a network's options are checked against. */
export interface OptionsSubject<O> {
  postType: PostType;
  /** `platformOptions.<the post's platform>`; absent when the caller gave none. */
  options: O | undefined;
}

/** An option the post's type cannot carry: 422, rather than an option silently dropped. */
export const PLATFORM_OPTION_NOT_ALLOWED = 'PLATFORM_OPTION_NOT_ALLOWED';
