import type { InspectionPhotoKind, InspectionPhotoRecord, InspectionPhotos } from '../core/ports';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

type Row = NonNullable<Awaited<ReturnType<PrismaClient['inspectionPhoto']['findUnique']>>>;

const recordOf = (row: Row): InspectionPhotoRecord => ({
  id: row.id,
  vehicleId: row.vehicleId,
  inspectionKey: row.inspectionKey,
  kind: row.kind as InspectionPhotoKind,
  ...(row.item !== null && { item: row.item }),
  inspectorId: row.inspectorId,
  contentType: row.contentType,
  sha256: row.sha256,
  size: row.size,
  objectKey: row.objectKey,
  strippedKey: row.strippedKey,
  ...(row.takenAt !== null && { takenAt: row.takenAt }),
  ...(row.takenWhere !== null && { takenWhere: row.takenWhere as unknown as InspectionPhotoRecord['takenWhere'] }),
  receivedAt: row.receivedAt,
});

/** The records of inspections' photos, in `inspection_photos` (the bytes are in the ObjectStorage port). */
export class PrismaInspectionPhotos implements InspectionPhotos {
  constructor(private readonly prisma: PrismaClient) {}

  async add(photo: InspectionPhotoRecord): Promise<{ photo: InspectionPhotoRecord; created: boolean }> {
    const replayOf = () =>
      this.prisma.inspectionPhoto.findUnique({
        where: {
          vehicleId_inspectorId_inspectionKey_sha256: {
            vehicleId: photo.vehicleId,
            inspectorId: photo.inspectorId,
            inspectionKey: photo.inspectionKey,
            sha256: photo.sha256,
          },
        },
      });
    const kept = await replayOf();
    if (kept) return { photo: recordOf(kept), created: false };
    try {
      const row = await this.prisma.inspectionPhoto.create({
        data: {
          ...photo,
          item: photo.item ?? null,
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

  async list(vehicleId: string, limit: number, inspectionKey?: string): Promise<InspectionPhotoRecord[]> {
    const rows = await this.prisma.inspectionPhoto.findMany({
      where: { vehicleId, ...(inspectionKey !== undefined && { inspectionKey }) },
      orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(recordOf);
  }

  async find(vehicleId: string, id: string): Promise<InspectionPhotoRecord | undefined> {
    const row = await this.prisma.inspectionPhoto.findFirst({ where: { id, vehicleId } });
    return row ? recordOf(row) : undefined;
  }
}
