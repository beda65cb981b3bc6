import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Text of one field of one entity in a non-default language. The default language lives on the entity. */
@Entity('translations')
export class TranslationEntity {
  @PrimaryColumn({ name: 'entity_type', type: 'varchar', length: 32 })
  entityType: string;

  @PrimaryColumn({ name: 'entity_id', type: 'integer' })
  entityId: number;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  field: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  language: string;

  @Column({ type: 'text' })
  text: string;
}
