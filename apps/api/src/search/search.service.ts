import { Inject, Injectable } from '@nestjs/common';
import {
  REGISTRY_KINDS,
  assemblyScope,
  jurisdictionOf,
  searchTerms,
  type Actor,
  type Page,
  type PageRequest,
  type RegistryKind,
} from '@transport/domain';
import type { RegistrySearch } from '../core/ports';
import { REGISTRY_SEARCH } from '../core/tokens';
import { toSearchHitResponse, type SearchHitResponse } from './search.dto';

/**
 * Finding any record of the registry from one search box: vehicles, drivers and owners, whatever their state, within
 * the caller's jurisdiction (assembly staff: their assembly's records only, counts included; admins nationwide).
 */
@Injectable()
export class SearchService {
  constructor(@Inject(REGISTRY_SEARCH) private readonly registry: RegistrySearch) {}

  async search(
    query: string,
    kind: RegistryKind | undefined,
    page: PageRequest,
    actor: Actor,
  ): Promise<Page<SearchHitResponse>> {
    const kinds = kind ? [kind] : REGISTRY_KINDS;
    const found = await this.registry.search(searchTerms(query), kinds, page, assemblyScope(jurisdictionOf(actor)));
    return { ...found, items: found.items.map(toSearchHitResponse) };
  }
}
