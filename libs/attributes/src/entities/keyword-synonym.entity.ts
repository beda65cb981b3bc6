import { Entity, PrimaryColumn } from 'typeorm';

@Entity('keyword_synonyms')
export class KeywordSynonymEntity {
  @PrimaryColumn({ name: 'keyword_id', type: 'integer' })
  keywordId: number;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  synonym: string;
}
