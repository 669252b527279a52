import { ResponseValidationError } from './errors.js';

/**
 * One page of any list of any client: its items and what to ask for the next page (a page id, or a page
 * number as text), `null` on the last page.
 */
export interface Page<T> {
  items: T[];
  nextPageId: string | null;
}

export interface PaginateOptions<T> {
  /**
   * For servers whose `next_page_id` is the id of the next page's first item: that id of an item, compared
   * with the `page_id` asked for. Leave it out for other cursors.
   */
  idOf?: ((item: T) => string | undefined) | undefined;
  /** Makes two ids comparable (e.g. a conversation's dashed id and the 32-hex `next_page_id`). */
  normalizeId?: (id: string) => string;
}

/**
 * Every item of a paged list, fetched lazily page by page (`for await (const item of list)`), or the pages
 * themselves (`for await (const page of list.pages())`). Each iteration starts from the first page. What every
 * client's lists return.
 *
 * The agent server's `next_page_id` is the id of the first item of the next page, and a `page_id` it no longer
 * knows silently restarts from the beginning; both would make a naive loop repeat items or never end, so a
 * page that does not start with the asked id (with `idOf`), or a repeated `nextPageId`, is a
 * `ResponseValidationError`.
 */
export class PagedIterable<T> implements AsyncIterable<T> {
  readonly #fetchPage: (pageId: string | undefined) => Promise<Page<T>>;
  readonly #options: PaginateOptions<T>;

  constructor(fetchPage: (pageId: string | undefined) => Promise<Page<T>>, options: PaginateOptions<T> = {}) {
    this.#fetchPage = fetchPage;
    this.#options = options;
  }

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const normalize = this.#options.normalizeId ?? ((id: string) => id);
    const asked = new Set<string>();
    let pageId: string | undefined;
    for (;;) {
      const page = await this.#fetchPage(pageId);
      if (pageId !== undefined) this.#checkStart(page, pageId, normalize);
      yield page;
      if (page.nextPageId === null || page.items.length === 0) return;
      const next = normalize(page.nextPageId);
      if (asked.has(next))
        throw pagingError(`next_page_id ${JSON.stringify(page.nextPageId)} was already asked for`);
      asked.add(next);
      pageId = page.nextPageId;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.items;
  }

  #checkStart(page: Page<T>, pageId: string, normalize: (id: string) => string): void {
    const first = page.items[0];
    if (first === undefined || !this.#options.idOf) return;
    const id = this.#options.idOf(first);
    if (id !== undefined && normalize(id) !== normalize(pageId)) {
      throw pagingError(
        `the page asked with page_id ${JSON.stringify(pageId)} starts with ${JSON.stringify(id)}: the server no longer knows that id and restarted from the first page`,
      );
    }
  }
}

function pagingError(detail: string): ResponseValidationError {
  return new ResponseValidationError('Paging failed', {
    issues: [{ path: ['next_page_id'], message: detail }],
  });
}
