import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('groups')
export class GroupEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
