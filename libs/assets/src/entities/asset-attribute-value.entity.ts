import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One attribute value of an asset. `language` '' holds the default-language (or language-neutral) value. */
@Entity('asset_attribute_values')
export class AssetAttributeValueEntity {
  @PrimaryColumn({ name: 'asset_id', type: 'integer' })
  assetId: number;

  @PrimaryColumn({ name: 'attribute_id', type: 'integer' })
  attributeId: number;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  language: string;

  @Column({ type: 'text' })
  value: string;
}
