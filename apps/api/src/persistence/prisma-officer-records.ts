import { oneOf, parseGeoPoint, type Notice } from '@transport/domain';
import type { NoticePhotoRecord, NoticePhotos, OfficerRecords } from '../core/officer-ports';
import type { RoadsideCheckRecord } from '../core/enforcement-ports';
import { Prisma, type PrismaClient } from '../generated/prisma/client';
import { noticeToDomain } from './prisma-enforcement.store';

type Row = NonNullable<Awaited<ReturnType<PrismaClient['noticePhoto']['findUnique']>>>;

const recordOf = (row: Row): NoticePhotoRecord => ({
  id: row.id,
  noticeId: row.noticeId,
  photoKey: row.photoKey,
  officerId: row.officerId,
  contentType: row.contentType,
  sha256: row.sha256,
  size: row.size,
  objectKey: row.objectKey,
  strippedKey: row.strippedKey,
  ...(row.takenAt !== null && { takenAt: row.takenAt }),
  ...(row.takenWhere !== null && { takenWhere: row.takenWhere as unknown as NoticePhotoRecord['takenWhere'] }),
  receivedAt: row.receivedAt,
});

/** The records of notices' evidence photos, in `notice_photos` (the bytes are in the ObjectStorage port). */
export class PrismaNoticePhotos implements NoticePhotos {
  constructor(private readonly prisma: PrismaClient) {}

  async add(photo: NoticePhotoRecord): Promise<{ photo: NoticePhotoRecord; created: boolean }> {
    const replayOf = () =>
      this.prisma.noticePhoto.findUnique({
        where: { noticeId_photoKey: { noticeId: photo.noticeId, photoKey: photo.photoKey } },
      });
    const kept = await replayOf();
    if (kept) return { photo: recordOf(kept), created: false };
    try {
      const row = await this.prisma.noticePhoto.create({
        data: {
          ...photo,
          takenAt: photo.takenAt ?? null,
          takenWhere: photo.takenWhere ? (photo.takenWhere as unknown as Prisma.InputJsonValue) : Prisma.DbNull,
        },
      });
      return { photo: recordOf(row), created: true };
    } catch (error) {
      // The same photo sent twice at once: the unique index lets one in; the other answers it.
      if ((error as { code?: string } | null)?.code !== 'P2002') throw error;
      const first = await replayOf();
      if (!first) throw error;
      return { photo: recordOf(first), created: false };
    }
  }

  async list(noticeId: string, limit: number): Promise<NoticePhotoRecord[]> {
    const rows = await this.prisma.noticePhoto.findMany({
      where: { noticeId },
      orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
      take: limit,
    });
    return rows.map(recordOf);
  }

  async find(noticeId: string, id: string): Promise<NoticePhotoRecord | undefined> {
    const row = await this.prisma.noticePhoto.findFirst({ where: { id, noticeId } });
    return row ? recordOf(row) : undefined;
  }
}

/** An officer's own notices and checks since a moment (their day), on the indexes by officer and time. */
export class PrismaOfficerRecords implements OfficerRecords {
  constructor(private readonly prisma: PrismaClient) {}

  async noticesOf(officerId: string, since: Date, limit: number): Promise<Notice[]> {
    const rows = await this.prisma.notice.findMany({
      where: { officerId, createdAt: { gte: since } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(noticeToDomain);
  }

  async checksOf(officerId: string, since: Date, limit: number): Promise<RoadsideCheckRecord[]> {
    const rows = await this.prisma.roadsideCheck.findMany({
      where: { officerId, createdAt: { gte: since } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map((row) => ({
      id: row.id,
      officerId: row.officerId,
      assemblyId: row.assemblyId,
      ...(row.vehicleId !== null && { vehicleId: row.vehicleId }),
      by: oneOf(['plate', 'token'] as const, row.by, 'by'),
      ...(row.query !== null && { query: row.query }),
      madeAt: row.madeAt,
      ...(row.location !== null && { location: parseGeoPoint(row.location, 'location') }),
      createdAt: row.createdAt,
    }));
  }
}
