const MB = 1024 * 1024;

/**
 * The largest files LinkedIn takes (networks/linkedin.md §4–5: organic video ≤ 500 MB, documents
 * ≤ 100 MB, third-party figures). Checked before uploading, so a file LinkedIn would refuse is not
 * sent at all; LinkedIn's own refusal (413) maps to the same MEDIA_TOO_LARGE.
 */
export const LINKEDIN_MAX_BYTES = { video: 500 * MB, document: 100 * MB } as const;

/** When to look again at media LinkedIn is processing: it gives no hint, so these are ours. */
export const LINKEDIN_CHECK_AFTER_SECONDS = { video: 30, document: 10 } as const;

/**
 * The largest og:image read for an article's thumbnail: ours (LinkedIn limits an image's pixels,
 * not its bytes); a page's card image is far smaller, and a larger one is left off the card.
 */
export const LINKEDIN_THUMBNAIL_MAX_BYTES = 5 * MB;

/**
 * An article card's title and description, at most (Posts API ArticleContent as LinkedIn's
 * partners quote its schema: title under 400, description under 4,086 characters).
 */
export const LINKEDIN_ARTICLE_TITLE_MAX = 400;
export const LINKEDIN_ARTICLE_DESCRIPTION_MAX = 4086;
