import { Module } from '@nestjs/common';

/** Placeholder until the storage adapters land: provides ObjectStorage chosen by STORAGE_DRIVER. */
@Module({})
export class StorageModule {}
