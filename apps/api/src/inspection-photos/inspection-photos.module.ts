import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { ObjectStorage } from '../core/storage-ports';
import { OBJECT_STORAGE } from '../core/tokens';
import { FraudFlagsModule } from '../fraud-flags/fraud-flags.module';
import { InspectionPhotosController } from './inspection-photos.controller';
import { InspectionPhotosService } from './inspection-photos.service';

/** Closes the object store's connections (the S3 client's keep-alive sockets) when the app shuts down. */
@Injectable()
export class ObjectStorageShutdown implements OnApplicationShutdown {
  constructor(@Inject(OBJECT_STORAGE) private readonly objects: ObjectStorage) {}

  onApplicationShutdown(): void {
    this.objects.close?.();
  }
}

/** Photos of inspections (issue 46, item 4): their bytes through the ObjectStorage port (docs/storage.md). */
@Module({
  imports: [FraudFlagsModule],
  controllers: [InspectionPhotosController],
  providers: [InspectionPhotosService, ObjectStorageShutdown],
})
export class InspectionPhotosModule {}
