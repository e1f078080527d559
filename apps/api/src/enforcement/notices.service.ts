import { Inject, Injectable } from '@nestjs/common';
import { CommonErrors, type Actor, type Notice } from '@transport/domain';
import type { EnforcementStore } from '../core/ports';
import { ENFORCEMENT_STORE } from '../core/tokens';

/** Notices after they are issued: who may read them, and (to come) their payment, contest and decision. */
@Injectable()
export class NoticesService {
  constructor(@Inject(ENFORCEMENT_STORE) private readonly enforcement: EnforcementStore) {}

  /** The notice, for the national admin, its assembly's staff and its officer; anyone else is told it is missing. */
  async visible(id: string, actor: Actor): Promise<Notice> {
    const notice = await this.enforcement.findNotice(id);
    const s = notice?.toState();
    if (!notice || !s) throw CommonErrors.notFound('notice', id);
    if (actor.role === 'admin' || s.assemblyId === actor.assemblyId || s.officerId === actor.id) return notice;
    throw CommonErrors.notFound('notice', id);
  }
}
