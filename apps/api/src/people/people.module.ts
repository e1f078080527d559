import { Module } from '@nestjs/common';
import { PeopleController } from './people.controller';
import { PeopleService } from './people.service';
import { PeopleWorkers } from './people-workers';

@Module({ controllers: [PeopleController], providers: [PeopleService, PeopleWorkers], exports: [PeopleService] })
export class PeopleModule {}
