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

  /** Hex SHA-256 of the chunk's bytes; null for chunks written before it was recorded. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  sha256: string | null;

  @Column({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
