/** One page of a list, and the request for it: what every store's list reads answer. */
export interface Page<T> {
  items: T[];
  /** Opaque; absent on the page that holds the last item, even when that page is exactly full. */
  nextCursor?: string;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}
