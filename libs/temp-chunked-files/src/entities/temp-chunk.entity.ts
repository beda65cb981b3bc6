import { Column, Entity, PrimaryColumn, ValueTransformer } from 'typeorm';

/** MySQL may hand bigint columns back as strings; sizes are always safe integers here. */
const bigintAsNumber: ValueTransformer = {
  from: (value: string | number | null) => (value === null ? null : Number(value)),
  to: (value: number | null) => value,
};

/** One chunk of a temp chunked file: which storage object holds the bytes of `chunkIndex`. */
@Entity('temp_chunks')
export class TempChunkEntity {
  @PrimaryColumn({ name: 'temp_file_id', type: 'varchar', length: 36 })
  tempFileId: string;

  @PrimaryColumn({ name: 'chunk_index', type: 'integer' })
  chunkIndex: number;

  /** `temp/{uuid}/{index}-{random}`: a fresh key per upload, so a replaced chunk never overwrites in place. */
  @Column({ name: 'storage_key', type: 'varchar', length: 191 })
  storageKey: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size: number;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
