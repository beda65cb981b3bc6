import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('asset_types')
export class AssetTypeEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
