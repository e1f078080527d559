import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from '@transport/domain';
import { cursorOf } from './list-order';

/**
 * RFC 8288: a `Link: <...>; rel="next"` header when more records exist, so bodies keep the documented shape. The link
 * keeps the query (filters, `sort`); its cursor names the order when the list is not newest first.
 */
export function setNextLink(request: FastifyRequest, response: FastifyReply, page: Page<unknown>): void {
  if (!page.next) return;
  const url = new URL(request.url, 'http://placeholder');
  url.searchParams.set('after', cursorOf(url.searchParams.get('sort'), page.next));
  response.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
}

/** Sets the `Link` header of a page and answers its items (the documented body is a plain array). */
export function pageItems<T>(request: FastifyRequest, response: FastifyReply, page: Page<T>): T[] {
  setNextLink(request, response, page);
  if (page.total !== undefined) response.header('X-Total-Count', String(page.total));
  return page.items;
}
